import { err, must, ok, type Result } from '../../result.ts';
import { fail, type Change, type GameError } from '../errors.ts';
import {
  DIRECTOR,
  MAFIA_TEAM,
  onlyPlayer,
  PUBLIC,
  type FallbackCategory,
  type GameEventOf,
  type ReasoningOutcome,
  type VotingBloc,
} from '../events.ts';
import { nightTargetError, recordAction } from '../night.ts';
import { isMafia, type RoleId } from '../roles/registry.ts';
import { findPlayer, type GameState, type Phase, type PlayerId, type VoteTarget } from '../state.ts';
import { Transition } from '../transition.ts';
import { endIfWon } from '../phases.ts';
import { allVoted, resolveVote, voteError } from '../vote.ts';
import { overChatLimit } from '../chat-limit.ts';
import { speechOf } from '../speech-rewrites.ts';
import { nextDefense } from '../trial-day.ts';

export const MAX_SPEECH_LENGTH = 2000;
export const MAX_WILL_LENGTH = 1000;

export function checkText(text: string, limit: number, what: string): Result<string, GameError> {
  const trimmed = text.trim();
  if (!trimmed) return fail('bad_text', `The ${what} is empty.`);
  if (trimmed.length > limit) {
    return fail('bad_text', `The ${what} is ${trimmed.length} characters; the limit is ${limit}.`);
  }
  return ok(trimmed);
}

export function notOver(state: GameState) {
  return state.phase === 'ended' ? fail('game_over', 'This game is over.') : null;
}

/** A night action: the Mafia's kill proposal, a protection, an investigation or a shot. null skips. */
export function act(state: GameState, input: { actorId: PlayerId; targetId: PlayerId | null; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  const error = nightTargetError(state, input.actorId, input.targetId);
  if (error) return err(error);
  const t = new Transition(state, input.at);
  recordAction(t, must(findPlayer(state, input.actorId), `actor ${input.actorId}`), input.targetId);
  return t.done();
}

/** Casts or replaces a vote (the same vote again changes nothing); when every living player has voted the vote resolves at once. */
export function vote(state: GameState, input: { voterId: PlayerId; targetId: VoteTarget; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  const error = voteError(state, input.voterId, input.targetId);
  if (error) return err(error);
  // A double click: the vote already stands, so there is nothing to record or announce.
  if (state.votes[input.voterId] === input.targetId) return ok({ state, events: [] });
  const t = new Transition(state, input.at);
  t.emit({ type: 'vote_cast', payload: { voterId: input.voterId, targetId: input.targetId } });
  if (allVoted(t.state)) resolveVote(t);
  return t.done();
}

export function unvote(state: GameState, input: { voterId: PlayerId; at: number }): Result<Change, GameError> {
  if (state.phase !== 'vote') return fail('wrong_phase', 'Votes are only taken during the vote.');
  if (!(input.voterId in state.votes)) return fail('invalid_target', 'You have not voted.');
  const t = new Transition(state, input.at);
  t.emit({ type: 'vote_withdrawn', payload: { voterId: input.voterId } });
  return t.done();
}

export type SpeechChannel = 'town' | 'mafia' | 'last_words';

/**
 * Speech enters the record only when the rules let this player speak on this channel now. `ref`
 * names the message it was said in (a Discord message id), so its author can edit or delete it
 * later; a message already taken is not taken twice.
 */
export function speak(
  state: GameState,
  input: { playerId: PlayerId; channel: SpeechChannel; text: string; at: number; ref?: string },
): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  if (input.ref !== undefined && speechOf(state.log, input.ref)) return ok({ state, events: [] });
  const speaker = findPlayer(state, input.playerId);
  if (!speaker) return fail('not_in_game', 'You are not playing in this game.');
  const lastWords = input.channel === 'last_words';
  if (!speaker.alive && !(lastWords && state.lynchedToday === speaker.id)) {
    return fail('dead', 'You are dead; the dead do not speak.');
  }
  if (input.channel === 'town' && state.phase === 'defense' && state.trial.defendant !== speaker.id) {
    const defendant = findPlayer(state, state.trial.defendant ?? '')?.name ?? 'the defendant';
    return fail('wrong_phase', `${defendant} is speaking in their defense; the town listens until the vote.`);
  }
  if (input.channel === 'town' && state.phase !== 'dawn' && state.phase !== 'day' && state.phase !== 'defense' && state.phase !== 'vote') {
    return fail('wrong_phase', 'The town talks by day; it is night now.');
  }
  if (lastWords && (state.phase !== 'last_words' || state.lynchedToday !== speaker.id)) {
    return fail('wrong_phase', 'Only the lynched player speaks during last words.');
  }
  if (input.channel === 'mafia' && (!isMafia(speaker.role) || state.phase === 'lobby')) {
    return fail('not_in_game', 'Only the Mafia talk in the Mafia channel.');
  }
  const text = checkText(input.text, MAX_SPEECH_LENGTH, 'message');
  if (!text.ok) return text;
  if (speaker.kind === 'human' && input.channel === 'town') {
    const limited = overChatLimit(state, speaker.id, { characters: text.value.length });
    if (limited) return limited;
  }
  const t = new Transition(state, input.at);
  t.emit(
    {
      type: 'speech',
      payload: { playerId: speaker.id, channel: input.channel, text: text.value, ...(input.ref !== undefined && { ref: input.ref }) },
    },
    input.channel === 'mafia' ? MAFIA_TEAM : PUBLIC,
  );
  return t.done();
}

/**
 * A person who left the server is taken out of the game at once: they die as "left the game" with
 * their role shown whatever the rules (as Discord Werewolf bots do), and the game ends if that
 * decides it; or, when the host chose `leaverSeat: 'ai'`, an AI plays on in their seat. The
 * Discord side calls this at a phase change, when it finds them gone.
 */
export function depart(state: GameState, input: { playerId: PlayerId; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  if (state.phase === 'lobby') return fail('wrong_phase', 'In the lobby, a person who left is simply removed.');
  const player = findPlayer(state, input.playerId);
  if (!player || player.kind !== 'human') return fail('not_in_game', 'Only a person seated in this game can leave it.');
  if (!player.alive) return fail('dead', 'They are already out of the game.');
  const t = new Transition(state, input.at);
  if (state.settings.rules.leaverSeat === 'ai') {
    // The seat plays on: nothing about it is revealed, and its votes and night action stand.
    t.emit({ type: 'seat_taken_over', payload: { playerId: player.id } });
    return t.done();
  }
  t.emit({ type: 'player_died', payload: { playerId: player.id, cause: 'left', day: state.day, role: player.role, will: null } });
  if (endIfWon(t)) return t.done();
  // The defendant left mid-defense: the next nominee speaks (or the vote begins) now.
  if (state.phase === 'defense' && state.trial.defendant === player.id) nextDefense(t);
  return t.done();
}

export function writeWill(state: GameState, input: { playerId: PlayerId; text: string; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  if (!state.settings.rules.lastWills) return fail('rule_disabled', 'This game has no last wills.');
  const player = findPlayer(state, input.playerId);
  if (!player) return fail('not_in_game', 'You are not playing in this game.');
  if (!player.alive) return fail('dead', 'You are dead; your will has already been read.');
  const text = checkText(input.text, MAX_WILL_LENGTH, 'will');
  if (!text.ok) return text;
  const t = new Transition(state, input.at);
  t.emit({ type: 'will_written', payload: { playerId: player.id, text: text.value } }, onlyPlayer(player.id));
  return t.done();
}

/**
 * Keeps an AI seat's private reasoning for the director's cut; no player ever sees it in play.
 * `phase`/`day` name the moment the decision was for (default: now), so a move that came too late
 * is not shown under the phase it arrived in.
 */
export function recordReasoning(
  state: GameState,
  input: {
    playerId: PlayerId;
    decision: string;
    text: string;
    at: number;
    phase?: Phase;
    day?: number;
    outcome?: ReasoningOutcome;
    fallback?: FallbackCategory;
    suspicion?: Readonly<Record<PlayerId, number>>;
    roleGuesses?: Readonly<Record<PlayerId, RoleId>>;
    blocs?: readonly VotingBloc[];
    tools?: readonly { name: string; input: string; output: string }[];
  },
): Result<Change, GameError> {
  if (!findPlayer(state, input.playerId)) return fail('not_in_game', 'That player is not in this game.');
  // Assigned one by one rather than spread in: every AI decision records one, and the fields keep this order.
  const payload: GameEventOf<'reasoning'>['payload'] = {
    playerId: input.playerId,
    phase: input.phase ?? state.phase,
    day: input.day ?? state.day,
    decision: input.decision,
    text: input.text,
  };
  if (input.outcome) payload.outcome = input.outcome;
  if (input.fallback) payload.fallback = input.fallback;
  // Kept as given: the caller hands over a record made for this event (the AI driver makes one per decision).
  if (input.suspicion) payload.suspicion = input.suspicion;
  if (input.roleGuesses && Object.keys(input.roleGuesses).length > 0) payload.roleGuesses = input.roleGuesses;
  if (input.blocs && input.blocs.length > 0)
    payload.blocs = input.blocs.map((b) => ({ players: [b.players[0], b.players[1]], together: b.together, of: b.of }));
  if (input.tools && input.tools.length > 0) payload.tools = input.tools.map((t) => ({ ...t }));
  const t = new Transition(state, input.at);
  t.emit({ type: 'reasoning', payload }, DIRECTOR);
  return t.done();
}

export const MAX_SUMMARY_LENGTH = 1500;

/** Stores the public recap of a finished day (one per day). */
export function recordDaySummary(state: GameState, input: { day: number; text: string; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  if (input.day < 1 || input.day > state.day) return fail('wrong_phase', `Day ${input.day} has not happened yet.`);
  if (state.log.some((e) => e.type === 'day_summary' && e.payload.day === input.day)) {
    return fail('wrong_phase', `Day ${input.day} already has a summary.`);
  }
  const text = checkText(input.text, MAX_SUMMARY_LENGTH, 'summary');
  if (!text.ok) return text;
  const t = new Transition(state, input.at);
  t.emit({ type: 'day_summary', payload: { day: input.day, text: text.value } });
  return t.done();
}

/** A public notice from the table itself; one with a `topic` is given once a game. */
export function announce(state: GameState, input: { text: string; at: number; topic?: string }): Result<Change, GameError> {
  const text = checkText(input.text, MAX_SPEECH_LENGTH, 'notice');
  if (!text.ok) return text;
  const { topic } = input;
  if (topic !== undefined && hasNotice(state, topic)) return ok({ state, events: [] });
  const t = new Transition(state, input.at);
  t.emit({ type: 'notice', payload: { text: text.value, ...(topic !== undefined && { topic }) } });
  return t.done();
}

/** Whether a notice on this topic has been given. */
function hasNotice(state: GameState, topic: string): boolean {
  return state.log.some((e) => e.type === 'notice' && e.payload.topic === topic);
}
