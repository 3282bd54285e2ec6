const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const INTENT: Record<'vote' | 'kill', string> = {
  vote: "(?:i(?:'m| am)? (?:voting|vote|going to vote)(?: for)?|my vote (?:is|goes) (?:on|to|for)?|lynch)",
  kill: '(?:kill|take out|hit|target|go after)',
};

/** "Don't lynch Ann", "I am not voting Ann", "never kill Ann": an intent said in order to refuse it. */
const NEGATED = /(?:\b(?:not|never|no|won't|wouldn't|shouldn't|can't|cannot)|n't)\s*$/i;

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
  for (const name of names) {
    if (decidedName !== null && name.toLowerCase() === decidedName.toLowerCase()) continue;
    const pattern = new RegExp(`\\b${INTENT[intent]}\\s+${escape(name)}(?![\\p{L}\\p{N}])`, 'giu');
    for (const match of speech.matchAll(pattern)) {
      const before = speech.slice(Math.max(0, match.index - 24), match.index);
      const firstWord = match[0].split(/\s+/)[0] ?? '';
      if (!NEGATED.test(before) && !NEGATED.test(before + firstWord)) return name;
    }
  }
  return null;
}
