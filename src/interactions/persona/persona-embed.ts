import { EmbedBuilder } from 'discord.js';
import { cut, COLOURS } from '../../discord/presenters/format.ts';
import type { Persona } from '../../persona/persona.ts';
import { renderPersona } from '../../persona/render.ts';
import { describeScope } from './context.ts';

const FIELD = 1024;
const bullets = (items: readonly string[]): string => cut(items.map((t) => `• ${t}`).join('\n'), FIELD) || '—';

/** A persona as people read it: who, how they play, their tactics per role, and what it costs in prompt words. */
export function personaEmbed(persona: Persona): EmbedBuilder {
  const { identity, playStyle, tactics } = persona.profile;
  const rendered = renderPersona(persona);
  const embed = new EmbedBuilder()
    .setColor(COLOURS.info)
    .setTitle(cut(identity.name, 256))
    .setDescription(cut([identity.background, '', `**Traits:** ${identity.coreTraits.join(', ')}`].join('\n'), 4096))
    .addFields({ name: 'Voice', value: cut(playStyle.voice, FIELD) }, { name: 'Approach', value: cut(playStyle.approach, FIELD) });
  if (playStyle.signaturePhrases.length > 0) embed.addFields({ name: 'Signature phrases', value: bullets(playStyle.signaturePhrases) });
  if (playStyle.signatureMoves.length > 0) embed.addFields({ name: 'Signature moves', value: bullets(playStyle.signatureMoves) });
  embed.addFields(
    { name: 'As Town', value: bullets(tactics.town), inline: true },
    { name: 'As Mafia', value: bullets(tactics.mafia), inline: true },
    { name: 'As Detective', value: bullets(tactics.detective), inline: true },
    { name: 'As Doctor', value: bullets(tactics.doctor), inline: true },
  );
  if (persona.parts.length > 0)
    embed.addFields({ name: 'Parts', value: cut(persona.parts.map((p) => `${p.name} (${p.type})`).join(', '), FIELD) });
  if (persona.notes !== '') embed.addFields({ name: 'Notes', value: cut(persona.notes, FIELD) });
  const words = rendered.ok ? `${rendered.value.words} prompt words` : 'does not render';
  const tags = persona.tags.length > 0 ? ` · tags: ${persona.tags.join(', ')}` : '';
  return embed.setFooter({ text: cut(`${describeScope(persona)} · ${words} · version ${persona.version}${tags}`, 2048) });
}

/** A plain-text cut of the notes' warnings the create and import replies show. */
export function warningsText(warnings: readonly string[]): string {
  return warnings.length === 0 ? '' : `\n${warnings.map((w) => `⚠️ ${w}`).join('\n')}`;
}
