import { TACTICS_ROLES } from '../../../persona/profile.ts';
import type { RenderedPersona } from '../../../persona/render.ts';

/** Seed 001's target; the renderer only warns past its wider 180–400 bounds. */
export const TARGET_WORDS = { min: 200, max: 300 } as const;

export interface Preview {
  readonly text: string;
  readonly words: number;
  readonly warnings: readonly string[];
}

/** The rendered persona with the editor's warnings: what a person should fix before a game. */
export function previewOf(rendered: RenderedPersona): Preview {
  const warnings = [...rendered.warnings];
  const { words } = rendered;
  if (rendered.warnings.length === 0 && (words < TARGET_WORDS.min || words > TARGET_WORDS.max)) {
    warnings.push(`It renders to ${words} words; aim for ${TARGET_WORDS.min}–${TARGET_WORDS.max}.`);
  }
  const byRole = TACTICS_ROLES.map((role) => rendered.tactics[role].join('\n').toLowerCase());
  if (new Set(byRole).size < byRole.length) {
    warnings.push('Some roles have the same tactics; role tactics should change what the persona decides in each role.');
  }
  return { text: rendered.text, words, warnings };
}
