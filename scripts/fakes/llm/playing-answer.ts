/**
 * How the bench's and the tests' scripted models answer a seat's decision: legally (among the
 * options its task lists) unless told not to, and writing each field to a share of the length the
 * schema states, as real models do, so token counts measured against them mean something. Shared
 * by the wire fakes (`playing-model.ts`) and the in-process simulated model (`scripts/lib/simulated-model.ts`).
 */

/**
 * How much a model writes. `terse`: 70 % of each stated length and two changed reads a turn (the
 * optimistic end); `typical`: each stated length in full; `verbose`: in full, with a read on every
 * living player (and, on the wire, a sentence before each tool call and a tool round at night).
 */
export type OutputLevel = 'terse' | 'typical' | 'verbose';
export const OUTPUT_LEVELS: readonly OutputLevel[] = ['terse', 'typical', 'verbose'];

const FILL: Record<OutputLevel, number> = { terse: 0.7, typical: 1, verbose: 1 };

export interface AnswerOptions {
  /** Which option to decide (default: a stable pick from the call's seed). */
  readonly pick?: (options: readonly string[]) => string;
  /** What to say (default: words filling the field). */
  readonly speech?: (decision: string) => string;
  /** How much it writes (default `terse`). */
  readonly level?: OutputLevel;
  /** Decide something the task does not offer (a dead player, itself, a skip it may not take), as models now and then do. */
  readonly illegal?: boolean;
}

/** The options the task lists for "decision" (empty for a speech, whose decision is "(nobody)"). */
export function taskOptions(task: string): string[] {
  const line = /^Options for "decision": (.*)\.$/m.exec(task)?.[1];
  return line ? line.split(', ') : [];
}

/** The living players the task's roster shows, the seat itself excluded. */
function livingOthers(task: string): string[] {
  return [...task.matchAll(/^\d+\. (.+?)(?: \(you\))? — alive/gm)].flatMap((m) =>
    m[1] === undefined || m[0].includes('(you)') ? [] : [m[1]],
  );
}

const WORDS = [
  'the',
  'vote',
  'record',
  'shows',
  'a',
  'quiet',
  'pattern',
  'that',
  'matters',
  'more',
  'than',
  'loud',
  'claims',
  'and',
  'careful',
  'reads',
  'of',
  'who',
  'moved',
  'late',
  'on',
  'each',
  'wagon',
  'so',
  'I',
  'weigh',
  'words',
  'against',
  'actions',
  'before',
  'trusting',
  'anyone',
  'here',
  'today',
  'with',
  'patience',
  'not',
  'haste',
];

/** Plain words (never a player's name) filling about `chars` characters, different per seed. */
function filler(chars: number, seed: number): string {
  let text = '';
  for (let i = seed; text.length < chars; i++) text += `${text ? ' ' : ''}${WORDS[(i * 7 + seed) % WORDS.length]}`;
  return `${text.slice(0, Math.max(0, chars - 1)).trimEnd()}.`;
}

interface SchemaShape {
  properties?: Record<string, { description?: string; items?: SchemaShape; enum?: string[] }>;
}

/** The length a field may hold this turn: as the task's "Lengths this turn" line says, else its description ("At most N characters."). */
function statedLimit(task: string, schema: SchemaShape | undefined, field: string, fallback: number): number {
  const lengths = /^Lengths this turn: (.*)$/m.exec(task)?.[1] ?? '';
  const told = new RegExp(`\\b${field} ≤ (\\d+)`).exec(lengths);
  if (told) return Number(told[1]);
  const match = /At most (\d+) characters/.exec(schema?.properties?.[field]?.description ?? '');
  return match ? Number(match[1]) : fallback;
}

/**
 * What a plain, decisive player picks: never a skip when a target is offered; a vote goes with the
 * player most voted so far today (so days end in lynches, as they do at real liveGames), else with the
 * first option; a night action varies with the call. Undefined only when there is no choice.
 */
function defaultPick(task: string, choices: readonly string[], seed: number): string | undefined {
  const targets = choices.filter((c) => !c.startsWith('('));
  if (targets.length === 0) return choices[0];
  if (/# Your task: Vote/.test(task)) {
    const tally = new Map<string, number>();
    for (const [, name] of task.matchAll(/^\[vote\] .+? → (.+)$/gm)) if (name !== undefined) tally.set(name, (tally.get(name) ?? 0) + 1);
    const leader = [...tally].filter(([name]) => targets.includes(name)).sort((a, b) => b[1] - a[1])[0]?.[0];
    return leader ?? targets[0];
  }
  if (/# Your task: Propose/.test(task)) return targets[0];
  return targets[seed % targets.length];
}

/** About six characters a word, the space included. */
const CHARS_PER_WORD = 6;
/** What a recap writer holds to when its instructions state no length. */
const UNSTATED_RECAP_WORDS = 90;

/**
 * A day's recap as a real model writes it: its share of the words its instructions allow ("in at
 * most N words"), opening the same way every time.
 */
export function playingRecap(seed: number, level: OutputLevel = 'terse', instructions = ''): string {
  const words = Number(/at most (\d+) words/i.exec(instructions)?.[1] ?? UNSTATED_RECAP_WORDS);
  return `A tense day: ${filler(Math.round(words * CHARS_PER_WORD * FILL[level]), seed)}`;
}

/** A name the schema allows for "decision" that the task does not offer now, if there is one. */
function illegalPick(schema: SchemaShape | undefined, choices: readonly string[], seed: number): string | undefined {
  const allowed = schema?.properties?.['decision']?.enum ?? [];
  const off = allowed.filter((name) => !choices.includes(name));
  return off[seed % Math.max(1, off.length)];
}

/** A decision answer for the seat whose task is `task`; `seed` varies what it picks and writes from call to call. */
export function playingAnswer(task: string, schema: unknown, seed: number, options: AnswerOptions = {}): Record<string, unknown> {
  const shape = schema as SchemaShape | undefined;
  const level = options.level ?? 'terse';
  const fill = FILL[level];
  const choices = taskOptions(task);
  const legal = choices.length > 0 ? (options.pick?.(choices) ?? defaultPick(task, choices, seed)) : undefined;
  const wrong = options.illegal && choices.length > 0 ? illegalPick(shape, choices, seed) : undefined;
  // A speech lists no options: its decision is "(nobody)".
  const decision = wrong ?? legal ?? '(nobody)';
  const field = (name: string, fallback: number, salt: number): string =>
    filler(Math.round(statedLimit(task, shape, name, fallback) * fill), seed * 13 + salt);
  const silent = /speech: leave it empty/.test(task);
  // Models keep to a sentence when asked for one, whatever room the field has.
  const oneSentence = /speech: one sentence/.test(task) ? 140 : Number.POSITIVE_INFINITY;
  const others = livingOthers(task);
  // Reads that changed this turn: two (every living player when verbose), unless the task asks for none.
  const changed = level === 'verbose' ? others : others.slice(seed % 3, (seed % 3) + 2);
  const readOn = /^beliefs: leave it empty/m.test(task) ? [] : changed;
  return {
    observations: field('observations', 120, 1),
    analysis: field('analysis', 320, 2),
    beliefs: readOn.map((player, i) => ({
      player,
      suspicion: ((seed + i) % 10) / 10,
      trust: 0.5,
      reason: filler(Math.round(statedLimit(task, shape?.properties?.['beliefs']?.items, 'reason', 70) * fill), seed + i),
    })),
    strategy: field('strategy', 120, 3),
    decision,
    speech: silent
      ? ''
      : (options.speech?.(decision) ??
        filler(Math.min(oneSentence, Math.round(statedLimit(task, shape, 'speech', 300) * fill)), seed * 13 + 4)),
    urgency: 1,
  };
}
