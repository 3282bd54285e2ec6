import type { GameState } from '../../game/index.ts';
import { plainText } from '../../plain-text.ts';

export const MAX_CONTENT = 2000;

/** Discord's relative timestamp ("in 2 minutes"), shown in each reader's own time zone. */
export function relativeTime(epochMs: number): string {
  return `<t:${Math.floor(epochMs / 1000)}:R>`;
}

/** Cuts text to a limit at a word boundary, marking the cut. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const slice = text.slice(0, limit - 1);
  const space = slice.lastIndexOf(' ');
  return `${space > limit * 0.6 ? slice.slice(0, space) : slice}…`;
}

/** A name people gave (a persona's, a person's) as plain text inside Markdown: shown as typed, never as formatting. */
export function plainName(name: string): string {
  return plainText(name);
}

/** A name people gave, in bold and shown as typed. */
export function boldName(name: string): string {
  return `**${plainText(name)}**`;
}

export function nameOf(state: GameState, id: string): string {
  return plainName(state.players.find((p) => p.id === id)?.name ?? 'someone');
}

/** Nothing the bot posts may ping anyone: names are plain text. */
export const NO_MENTIONS = { parse: [] as [] };

export const COLOURS = { town: 0x3b82f6, mafia: 0xdc2626, neutral: 0xa855f7, night: 0x1e293b, day: 0xf59e0b, info: 0x64748b } as const;
