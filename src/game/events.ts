import { z } from 'zod';
import { RoleIdSchema } from './roles/ids.ts';
import { SettingsSchema } from './settings.ts';

/** Who may ever learn of an event. `director` is for the post-game director's cut only. */
const VisibilitySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('public') }),
  z.object({ kind: z.literal('team'), team: z.literal('mafia') }),
  z.object({ kind: z.literal('player'), playerId: z.string() }),
  z.object({ kind: z.literal('director') }),
]);
export type Visibility = z.infer<typeof VisibilitySchema>;

const PlayerKindSchema = z.enum(['human', 'ai']);
export type PlayerKind = z.infer<typeof PlayerKindSchema>;

/** `left`: the person left the server mid-game and was taken out of it (their role is always shown). */
const DeathCauseSchema = z.enum(['mafia', 'vigilante', 'lynch', 'left']);
export type DeathCause = z.infer<typeof DeathCauseSchema>;

/**
 * Two players who voted for the same target on `together` of the `of` days both voted: a seat's
 * "voting bloc" (seed 001), worked out from the public tallies.
 */
export const VotingBlocSchema = z.object({
  players: z.tuple([z.string(), z.string()]),
  together: z.number().int().min(0),
  of: z.number().int().min(0),
});
export type VotingBloc = z.infer<typeof VotingBlocSchema>;

const PhaseSchema = z.enum(['lobby', 'night', 'dawn', 'day', 'defense', 'vote', 'last_words', 'ended']);

/** Whether an AI decision's move entered the game: in time, after its phase had ended, or refused by the rules. */
const ReasoningOutcomeSchema = z.enum(['counted', 'late', 'refused']);
export type ReasoningOutcome = z.infer<typeof ReasoningOutcomeSchema>;

/** Why an AI seat's offline brain decided instead of its model (the provider's own words stay in the log). */
const FallbackCategorySchema = z.enum([
  'timeout',
  'rate_limited',
  'refused',
  'invalid_answer',
  'auth_failed',
  /** The provider does not serve the seat's model (unknown or retired). */
  'model_unavailable',
  'budget_spent',
  'provider_error',
  /** The bot came back after the move was due (a restart late in the phase, or past its deadline): no time to ask. */
  'restart',
]);
export type FallbackCategory = z.infer<typeof FallbackCategorySchema>;

export const OutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('win'), faction: z.enum(['town', 'mafia']) }),
  z.object({ kind: z.literal('draw'), reason: z.string() }),
  z.object({ kind: z.literal('cancelled'), by: z.string().nullable(), reason: z.string() }),
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

const id = z.string().min(1);
const target = id.nullable();

function event<T extends string, P extends z.ZodRawShape>(type: T, payload: P) {
  return z.object({ type: z.literal(type), payload: z.object(payload) });
}

/** Every change to a game is one of these; `state = fold(events)`. */
const EventBodySchema = z.discriminatedUnion('type', [
  event('game_created', { gameId: id, seed: z.number().int(), settings: SettingsSchema }),
  event('player_joined', {
    player: z.object({
      id,
      name: z.string().min(1),
      kind: PlayerKindSchema,
      userId: z.string().nullable(),
      personaId: z.string().nullable(),
    }),
  }),
  event('player_left', { playerId: id }),
  /** In the lobby: a person took an AI seat's name, and the AI takes the mark ("Gina (AI)"). */
  event('player_renamed', { playerId: id, name: z.string().min(1) }),
  /** A person left the server mid-game and the rules say an AI plays on in their seat: same name, same role, now an AI. */
  event('seat_taken_over', { playerId: id }),
  /** Public: the role list in play (not who holds what). */
  /** `dayStyle`: the day the game plays, `auto` decided (absent in logs written before trial days: open). */
  event('game_started', { roles: z.array(RoleIdSchema), dayStyle: z.enum(['open', 'trial']).optional() }),
  event('role_assigned', { playerId: id, role: RoleIdSchema }),
  event('mafia_team', { members: z.array(z.object({ playerId: id, role: RoleIdSchema })) }),
  /** `defendantId`: in a defense phase, the nominee whose turn it is. */
  event('phase_started', { phase: PhaseSchema, day: z.number().int(), deadline: z.number().nullable(), defendantId: id.optional() }),
  event('night_action', { actorId: id, action: z.enum(['protect', 'investigate', 'shoot']), targetId: target }),
  event('mafia_proposal', { actorId: id, round: z.union([z.literal(1), z.literal(2)]), targetId: target }),
  event('mafia_second_round', { firstRound: z.record(z.string(), target) }),
  event('mafia_decision', { targetId: target, how: z.enum(['agreement', 'lowest_seat', 'deadline', 'none']) }),
  event('investigation_result', {
    detectiveId: id,
    targetId: id,
    night: z.number().int(),
    result: z.enum(['mafia', 'innocent']),
  }),
  event('player_died', {
    playerId: id,
    cause: DeathCauseSchema,
    day: z.number().int(),
    role: RoleIdSchema.nullable(),
    will: z.string().nullable(),
  }),
  event('night_resolved', { night: z.number().int(), deaths: z.array(id) }),
  event('speech', {
    playerId: id,
    channel: z.enum(['town', 'mafia', 'last_words']),
    text: z.string(),
    /** The message it was said in, where it has one (a Discord message id): its author's edit or deletion finds it by this. */
    ref: z.string().optional(),
    /** Its author changed it while its phase lasted; `text` is what it says now. */
    edited: z.literal(true).optional(),
    /** Its author deleted it; `text` is DELETED_SPEECH, the words are gone from the log and the store. */
    deleted: z.literal(true).optional(),
  }),
  /**
   * A person changed a message of theirs while its phase lasted. Folding it puts `text` into the
   * speech at `seq` (marked edited), and the store writes the speech's row over the same way: the
   * log gains an event and the old words are kept nowhere.
   */
  event('speech_edited', { seq: z.number().int().positive(), text: z.string() }),
  /**
   * A person (or a moderator) deleted a message the game had taken. Folding it blanks the speech at
   * `seq` and every edit of it, and the store scrubs their rows alike.
   */
  event('speech_deleted', { seq: z.number().int().positive() }),
  /** Trial day: a player puts another up for trial; it stands once seconded (or at once, when the rules need no second). */
  event('nominated', { day: z.number().int(), nominatorId: id, targetId: id }),
  event('nomination_seconded', { day: z.number().int(), seconderId: id, targetId: id }),
  /** Trial day: the defendant rests their case before their time is up. */
  event('defense_rested', { playerId: id }),
  event('vote_cast', { voterId: id, targetId: z.union([id, z.literal('no_lynch')]) }),
  event('vote_withdrawn', { voterId: id }),
  event('vote_resolved', {
    day: z.number().int(),
    tally: z.array(z.object({ targetId: z.union([id, z.literal('no_lynch')]), voters: z.array(id) })),
    lynchedId: target,
    /** `no_nominees`: a trial day where nobody stood accused, so there was no vote. */
    reason: z.enum(['plurality', 'majority', 'tie', 'no_majority', 'no_lynch', 'no_votes', 'no_nominees']),
  }),
  event('will_written', { playerId: id, text: z.string() }),
  event('jester_won', { playerId: id }),
  event('game_ended', {
    outcome: OutcomeSchema,
    roles: z.record(z.string(), RoleIdSchema),
    jesterWinners: z.array(id),
  }),
  /** A public recap of one day, written once and shared by every seat; earlier days are read through these. */
  event('day_summary', { day: z.number().int(), text: z.string() }),
  /**
   * Something the table should know that is not a move (e.g. an AI seat fell back to the offline
   * brain). `topic` names what it is about, so a notice is given once (e.g. `budget`, `fallback:<player>`).
   */
  event('notice', { text: z.string(), topic: z.string().optional() }),
  /**
   * An AI seat's private reasoning behind one decision, kept for the director's cut. `phase` and
   * `day` are those the decision was for; `outcome` says whether its move counted (absent in logs
   * written before it existed); `fallback` why the offline brain decided instead of the model.
   */
  event('reasoning', {
    playerId: id,
    phase: PhaseSchema,
    day: z.number().int(),
    decision: z.string(),
    text: z.string(),
    outcome: ReasoningOutcomeSchema.optional(),
    fallback: FallbackCategorySchema.optional(),
    /** The seat's suspicion of each player (0 town … 1 Mafia) after this decision: the pictures and belief accuracy read it. */
    suspicion: z.record(id, z.number().min(0).max(1)).optional(),
    /** The role the seat guessed for each player it had a guess on ("likely Detective"); absent in older logs and when it had none. */
    roleGuesses: z.record(id, RoleIdSchema).optional(),
    /** The voting blocs the seat saw when it decided; absent in older logs and while there were none. */
    blocs: z.array(VotingBlocSchema).optional(),
    /** The tools the seat called while it reasoned, as text. */
    tools: z.array(z.object({ name: z.string(), input: z.string(), output: z.string() })).optional(),
  }),
]);
export type EventBody = z.infer<typeof EventBodySchema>;
export type EventType = EventBody['type'];

export type GameEvent = EventBody & {
  /** 1-based position in the game's log. */
  readonly seq: number;
  /** Epoch ms from the injected clock. */
  readonly at: number;
  readonly visibility: Visibility;
};

export type GameEventOf<T extends EventType> = Extract<GameEvent, { type: T }>;

export const GameEventSchema = z.intersection(
  EventBodySchema,
  z.object({ seq: z.number().int().positive(), at: z.number(), visibility: VisibilitySchema }),
);

export const PUBLIC: Visibility = { kind: 'public' };
export const MAFIA_TEAM: Visibility = { kind: 'team', team: 'mafia' };
export const DIRECTOR: Visibility = { kind: 'director' };
export const onlyPlayer = (playerId: string): Visibility => ({ kind: 'player', playerId });
