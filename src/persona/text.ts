/** Words as a reader counts them: runs of non-space characters. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

// Abbreviations whose dot does not end a sentence ("Dr. Watson", "St. Helena").
const ABBREVIATIONS = /\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Mt|vs|etc|e\.g|i\.e|No|Gen|Col|Capt|Lt|Prof)\.$/i;

/** Sentences, split after . ! ? followed by a space; good enough to bound a background. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const token of text.trim().split(/(\s+)/)) {
    current += token;
    if (/[.!?]["”’)]*$/.test(token) && !ABBREVIATIONS.test(token)) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') out.push(current.trim());
  return out.filter((s) => s !== '');
}

/** The first `n` words, with an ellipsis when something was cut. */
export function firstWords(text: string, n: number): string {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.length <= n
    ? words.join(' ')
    : `${words
        .slice(0, n)
        .join(' ')
        .replace(/[,;:.]+$/, '')}…`;
}

/** Cut to at most `max` characters on a word boundary. */
export function clip(text: string, max: number): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:.]+$/, '')}…`;
}

/** Case- and space-insensitive key under which names are unique. */
export function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
