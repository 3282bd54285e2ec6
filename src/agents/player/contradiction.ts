const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Words that announce a target: "I vote", "we're voting for", "my vote goes to", "lynch", a sentence-initial "Vote". */
const INTENT: Record<'vote' | 'kill', string> = {
  vote: "(?:(?:i|we)(?:'m|'re| am| are)? (?:voting|vote|going to vote)(?: for)?|my vote (?:is|goes) (?:on|to|for)?|(?<=^|[.!?]\\s+)vote(?: for)?|lynch)",
  kill: '(?:kill|take out|hit|target|go after)',
};

/** Any of these earlier in the same clause refuses the intent: "don't lynch Ann", "rather than kill Ann". */
const NEGATOR = /\b(?:not|never|no|nobody|no one|won't|wouldn't|shouldn't|can't|cannot|rather than|instead of)\b|n't\b/i;

/** Where a clause starts: punctuation, a dash, an ellipsis or "but". */
const CLAUSE_BREAK = /[.!?;:,…—–\n]|\s-\s|\bbut\b/gi;

/** "…, but Bob" / "… but rather Bob" / "…; instead Bob" right after a refused target. */
const BUT_INSTEAD = (names: string) =>
  new RegExp(`^\\s*[,;:—–-]?\\s*(?:but|instead)\\s+(?:rather\\s+)?(?:on\\s+|for\\s+)?(${names})(?![\\p{L}\\p{N}])`, 'iu');

/** "not Ann, but Bob", "not voting for Ann but Bob" in a sentence that also speaks of voting (or killing). */
const NOT_BUT = (names: string) =>
  new RegExp(
    `\\bnot\\s+(?:[\\p{L}']+\\s+){0,3}?(?:${names})\\s*[,;:—–-]?\\s*but\\s+(?:rather\\s+)?(?:on\\s+|for\\s+)?(${names})(?![\\p{L}\\p{N}])`,
    'giu',
  );
const TOPIC: Record<'vote' | 'kill', RegExp> = { vote: /\b(?:vote|voting|lynch)/i, kill: /\b(?:kill|hit|target|take out)/i };

function clauseBefore(speech: string, index: number): string {
  const before = speech.slice(0, index);
  let start = 0;
  for (const m of before.matchAll(CLAUSE_BREAK)) start = m.index + m[0].length;
  return before.slice(start);
}

/** Targets the speech announces for this intent, refused ones left out and "not X but Y" read as Y. */
function saidTargets(speech: string, intent: 'vote' | 'kill', names: readonly string[]): Set<string> {
  const alternatives = names.map(escape).join('|');
  const canonical = (found: string) => names.find((n) => n.toLowerCase() === found.toLowerCase()) ?? found;
  const said = new Set<string>();
  const announced = new RegExp(`\\b${INTENT[intent]}\\s+(${alternatives})(?![\\p{L}\\p{N}])`, 'giu');
  for (const match of speech.matchAll(announced)) {
    const after = speech.slice(match.index + match[0].length);
    // "Lynch Ann? No." asks, it does not announce.
    if (/^\s*\?/.test(after)) continue;
    if (!NEGATOR.test(clauseBefore(speech, match.index))) {
      said.add(canonical(match[1] ?? ''));
      continue;
    }
    const instead = BUT_INSTEAD(alternatives).exec(after);
    if (instead) said.add(canonical(instead[1] ?? ''));
  }
  for (const sentence of speech.split(/(?<=[.!?])\s+/)) {
    if (!TOPIC[intent].test(sentence)) continue;
    for (const match of sentence.matchAll(NOT_BUT(alternatives))) said.add(canonical(match[1] ?? ''));
  }
  return said;
}

/**
 * Finds speech that announces one target while the decision names another
 * (players hate an AI that says "I vote Ann" and votes Bob). Returns the name said, or null.
 */
export function contradiction(
  speech: string,
  intent: 'vote' | 'kill',
  decidedName: string | null,
  names: readonly string[],
): string | null {
  if (names.length === 0) return null;
  const said = saidTargets(speech, intent, names);
  return names.find((name) => said.has(name) && (decidedName === null || name.toLowerCase() !== decidedName.toLowerCase())) ?? null;
}
