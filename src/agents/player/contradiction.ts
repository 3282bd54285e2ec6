const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const INTENT: Record<'vote' | 'kill', string> = {
  vote: "(?:i(?:'m| am)? (?:voting|vote|going to vote)(?: for)?|my vote (?:is|goes) (?:on|to|for)?|lynch)",
  kill: "(?:kill|take out|hit|target|go after)",
};

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
    const pattern = new RegExp(`\\b${INTENT[intent]}\\s+${escape(name)}(?![\\p{L}\\p{N}])`, 'iu');
    if (pattern.test(speech)) return name;
  }
  return null;
}
