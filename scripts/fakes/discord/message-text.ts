/** What a human reads of a message, for tests' assertions. */
import { MessageFlags } from 'discord.js';
import type { SimMessage } from './model.ts';

/** Text a human reads in a message: content, embed text, and component labels. */
export function messageText(m: SimMessage): string {
  const parts: string[] = [m.content];
  for (const e of m.embeds as any[]) {
    parts.push(e.author?.name, e.title, e.description, ...(e.fields ?? []).flatMap((f: any) => [f.name, f.value]), e.footer?.text);
  }
  const walk = (list: any[]) =>
    list.forEach((c) => {
      if (c?.label) parts.push(c.label);
      if (c?.content) parts.push(c.content);
      if (Array.isArray(c?.options)) parts.push(...c.options.map((o: any) => o.label));
      if (Array.isArray(c?.components)) walk(c.components);
      if (c?.accessory) walk([c.accessory]);
    });
  walk(m.components as any[]);
  return parts.filter((p) => typeof p === 'string' && p.length > 0).join('\n');
}

/** Whether a message is ephemeral. */
export function isEphemeral(m: SimMessage): boolean {
  return (m.flags & MessageFlags.Ephemeral) !== 0;
}
