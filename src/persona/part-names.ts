import { COMPOSITION_LIMITS } from './composition.ts';
import { clip } from './text.ts';

/**
 * A part's name from its persona's name and what it holds ("Ada Lovelace backstory"): part names
 * start with a letter or digit, hold only letters, digits, spaces and - _ . ' and fit their limit,
 * which persona names need not.
 */
export function partNameFor(name: string, what: string, fallback: string): string {
  const safe =
    name
      .replace(/[^\p{L}\p{N} _.'’-]/gu, ' ')
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .replace(/\s+/g, ' ')
      .trim() || fallback;
  return `${clip(safe, COMPOSITION_LIMITS.name - what.length - 1).replace(/…$/, '')} ${what}`;
}
