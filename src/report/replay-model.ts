import { z } from 'zod';
import { fallbackLabel } from '../agents/directors-cut.ts';
import {
  getRole,
  narrate,
  PHASE_TITLE,
  phaseHeading,
  spokenText,
  type EventType,
  type GameEvent,
  type GameEventOf,
  type GameState,
  type Phase,
} from '../game/index.ts';
import { authorOf, decisionLines } from './decision-lines.ts';
import { namesARole, privatelyKnown } from './replay-spoilers.ts';

/** How a line is shown: what kind of thing happened. */
const ToneSchema = z.enum(['speech', 'vote', 'death', 'night', 'mafia', 'will', 'tally', 'summary', 'notice', 'end', 'info']);
type Tone = z.infer<typeof ToneSchema>;

const seq = z.number().int().positive();

/** What an AI seat thought behind one decision: its reasoning, its reads of the table and the tools it called. */
const MindSchema = z.object({
  seq,
  /** The phase the decision was for ("Vote 2"), also as data for the page's filters. */
  when: z.string(),
  phase: z.string(),
  day: z.number().int(),
  /** What it chose ("vote → Ada"), as the director's cut labels it. */
  decision: z.string(),
  text: z.string(),
  outcome: z.enum(['counted', 'late', 'refused']),
  /** Why the offline brain decided instead of the model, if it did. */
  fallback: z.string().nullable(),
  /** [player id, suspicion 0 town … 1 Mafia], most suspected first: pairs, as they are most of the page's bytes. */
  suspicion: z.array(z.tuple([z.string(), z.number().min(0).max(1)])),
  /** The role the seat guessed for a player (its name: "Detective"), by player id: shown beside that suspect, as the seat's guess. */
  guesses: z.record(z.string(), z.string()),
  tools: z.array(z.object({ name: z.string(), input: z.string(), output: z.string() })),
  /** Its reasoning, reads or tools name a role or a side, or read a player whose role the seat knew in private: shown only with the spoilers. */
  spoiler: z.boolean(),
});
type Mind = z.infer<typeof MindSchema>;

const LineSchema = z.object({ seq, text: z.string(), tone: ToneSchema });
type Line = z.infer<typeof LineSchema>;

/** `secret`: known only to a role (night moves, the Mafia thread, wills before death): shown with the spoilers. */
const TurnSchema = z.object({
  kind: z.literal('turn'),
  playerId: z.string(),
  secret: z.boolean(),
  /** What the seat said and did in one decision, in log order; none for a decision that left no line. */
  lines: z.array(LineSchema),
  mind: MindSchema.nullable(),
});
type Turn = z.infer<typeof TurnSchema>;

const EntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('phase'), seq, phase: z.string(), day: z.number().int(), title: z.string() }),
  /** What the game did; `playerId` is whom it is about (the dead, the Detective), if anyone. */
  z.object({ kind: z.literal('event'), playerId: z.string().nullable(), secret: z.boolean(), line: LineSchema }),
  TurnSchema,
]);
type Entry = z.infer<typeof EntrySchema>;

const PlayerSchema = z.object({
  id: z.string(),
  name: z.string(),
  seat: z.number().int(),
  kind: z.enum(['human', 'ai']),
  fate: z.string(),
  /** Shown only with the spoilers on. */
  role: z.object({ name: z.string(), faction: z.enum(['town', 'mafia', 'neutral']) }).nullable(),
});

/** Everything the HTML replay shows, as data: the page renders it and holds nothing else. */
export const ReplayModelSchema = z.object({
  version: z.literal(1),
  gameId: z.string(),
  title: z.string(),
  outcome: z.string().nullable(),
  players: z.array(PlayerSchema),
  entries: z.array(EntrySchema),
});
export type ReplayModel = z.infer<typeof ReplayModelSchema>;

/** Told elsewhere: the roster lists who sat, and the spoilers show who held what. */
const UNTOLD = new Set<EventType>(['game_created', 'player_joined', 'player_renamed', 'role_assigned', 'mafia_team']);

const TONE: Partial<Record<EventType, Tone>> = {
  vote_cast: 'vote',
  vote_withdrawn: 'vote',
  player_died: 'death',
  player_left: 'death',
  night_action: 'night',
  investigation_result: 'night',
  mafia_proposal: 'mafia',
  mafia_second_round: 'mafia',
  mafia_decision: 'mafia',
  will_written: 'will',
  vote_resolved: 'tally',
  day_summary: 'summary',
  notice: 'notice',
  jester_won: 'end',
  game_ended: 'end',
};

/** A seat's words under its name: the narration without the name it would repeat. */
function lineText(state: GameState, e: GameEvent): string | null {
  if (e.type !== 'speech') return narrate(state, e);
  const where = { town: '', mafia: '[Mafia thread] ', last_words: '(last words) ' }[e.payload.channel];
  return `${where}${spokenText(e.payload)}`;
}

function toneOf(e: GameEvent): Tone {
  if (e.type === 'speech') return e.payload.channel === 'mafia' ? 'mafia' : 'speech';
  return TONE[e.type] ?? 'info';
}

/** Whom an event of the game is about. */
function subjectOf(e: GameEvent): string | null {
  switch (e.type) {
    case 'player_died':
    case 'player_left':
    case 'jester_won':
      return e.payload.playerId;
    case 'investigation_result':
      return e.payload.detectiveId;
    default:
      return null;
  }
}

const phaseTitle = (phase: Phase, day: number): string => (phase === 'ended' ? PHASE_TITLE.ended : `${PHASE_TITLE[phase]} ${day}`);

/** What the replay needs to know of the game to tell which minds give roles away. */
interface Secrets {
  readonly names: readonly string[];
  readonly known: (seatId: string, seq: number) => ReadonlySet<string>;
}

function mindOf(e: GameEventOf<'reasoning'>, seatOf: (id: string) => number, secrets: Secrets): Mind {
  const p = e.payload;
  const tools = (p.tools ?? []).map((t) => ({ ...t }));
  const known = secrets.known(p.playerId, e.seq);
  const texts = [p.text, p.decision, ...tools.flatMap((t) => [t.input, t.output])];
  return {
    seq: e.seq,
    when: phaseTitle(p.phase, p.day),
    phase: p.phase,
    day: p.day,
    decision: p.decision,
    text: p.text,
    outcome: p.outcome ?? 'counted',
    fallback: p.fallback ? fallbackLabel(p.fallback) : null,
    suspicion: Object.entries(p.suspicion ?? {}).sort(([a, x], [b, y]) => y - x || seatOf(a) - seatOf(b)),
    guesses: Object.fromEntries(Object.entries(p.roleGuesses ?? {}).map(([id, role]) => [id, getRole(role).name])),
    tools,
    // A guess is the seat's own and shows as one; a read of a player it knew in private would be no guess.
    spoiler:
      texts.some((t) => namesARole(t, secrets.names)) ||
      [...Object.keys(p.suspicion ?? {}), ...Object.keys(p.roleGuesses ?? {})].some((id) => known.has(id)),
  };
}

/**
 * A finished game as the replay shows it: the roster, then every told event in log order, each
 * seat's words and moves grouped by the decision behind them, with that decision's mind beside
 * them. Null while the game runs: the replay shows what play must never show.
 */
export function replayModel(state: GameState, title: string): ReplayModel | null {
  if (state.phase !== 'ended') return null;
  const seatOf = (id: string) => state.players.find((p) => p.id === id)?.seat ?? Number.MAX_SAFE_INTEGER;
  const secrets: Secrets = { names: state.players.map((p) => p.name), known: privatelyKnown(state) };
  const decisionOf = new Map<number, number>();
  for (const [reasoning, lines] of decisionLines(state.log)) for (const line of lines) decisionOf.set(line, reasoning);
  /** Turns whose lines are in and whose reasoning is still ahead in the log, by the reasoning's seq. */
  const awaiting = new Map<number, Turn>();
  const entries: Entry[] = [];
  let outcome: string | null = null;

  for (const e of state.log) {
    if (e.type === 'reasoning') {
      const mind = mindOf(e, seatOf, secrets);
      const turn = awaiting.get(e.seq);
      awaiting.delete(e.seq);
      if (turn) turn.mind = mind;
      else entries.push({ kind: 'turn', playerId: e.payload.playerId, secret: e.payload.phase === 'night', lines: [], mind });
      continue;
    }
    if (e.type === 'phase_started') {
      const { phase, day } = e.payload;
      entries.push({ kind: 'phase', seq: e.seq, phase, day, title: phaseHeading(phase, day) });
      continue;
    }
    const text = UNTOLD.has(e.type) ? null : lineText(state, e);
    if (text === null) continue;
    if (e.type === 'game_ended') outcome = text;
    const line: Line = { seq: e.seq, text, tone: toneOf(e) };
    const secret = e.visibility.kind !== 'public';
    const author = authorOf(e);
    if (author === null) {
      entries.push({ kind: 'event', playerId: subjectOf(e), secret, line });
      continue;
    }
    const decision = decisionOf.get(e.seq);
    const open = decision === undefined ? undefined : awaiting.get(decision);
    if (open) {
      open.lines.push(line);
      open.secret ||= secret;
      continue;
    }
    const turn: Turn = { kind: 'turn', playerId: author, secret, lines: [line], mind: null };
    entries.push(turn);
    if (decision !== undefined) awaiting.set(decision, turn);
  }

  return {
    version: 1,
    gameId: state.id,
    title,
    outcome,
    players: state.players.map((p) => ({
      id: p.id,
      name: p.name,
      seat: p.seat,
      kind: p.kind,
      fate: p.death ? `died day ${p.death.day} (${p.death.cause})` : 'survived',
      role: p.role ? { name: getRole(p.role).name, faction: getRole(p.role).faction } : null,
    })),
    entries,
  };
}
