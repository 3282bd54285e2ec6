import type { GameEvent } from '../../game/index.ts';
import type { AiSeats } from '../ai-seats.ts';
import { defense, lastWords, votes, writeWills } from './day-moves.ts';
import { dueBy, phaseKey } from './deadlines.ts';
import { Discussion } from './discussion.ts';
import { nightMoves, secondRound } from './night-moves.ts';
import { SeatWork, type AiDriverOptions, type DriverGame } from './seat-work.ts';

export type { AiDriverOptions, DriverGame } from './seat-work.ts';

/**
 * Plays the AI seats of one game, in the bot, the demo and the bench alike. It reacts to what the
 * game publishes, asks each seat when it must act, and applies its moves as commands (which the
 * engine checks again).
 *
 * A seat played by its offline brain decides at once and its move goes in at once: a game of
 * offline seats costs no promise per decision. A model's decision carries the deadline of the phase
 * it is for, brought forward by a margin: at that moment the seat's offline brain decides in its
 * place, so every AI vote and night action is in before its phase resolves, whatever the model
 * does. Seats work independently and at once: a slow seat, speech or recap never delays another
 * seat's move. A move that comes after its phase is dropped (and shown as such in the director's
 * cut); a game that ends aborts all its AI work.
 */
export class AiDriver {
  private readonly work: SeatWork;
  private readonly discussion: Discussion;
  private reacted = '';

  constructor(game: DriverGame, seats: AiSeats, options: AiDriverOptions) {
    this.work = new SeatWork(game, seats, options);
    this.discussion = new Discussion(this.work);
  }

  /**
   * Starts the work the current phase needs (at creation, or after a restart). A restart that finds
   * the phase past the moment its moves were due (late in the phase, or past its deadline while no
   * bot ran) has the offline brain place every living AI seat's owed move (night action, Mafia
   * proposal, vote) at once, recorded as a `restart` fallback; it resolves once those are in, so
   * whoever resolves the phase can do it after them.
   */
  async resume(): Promise<void> {
    const work = this.work;
    const due = dueBy(work.state);
    if (!work.options.untimed && due !== null && due <= work.options.clock.now()) work.lateKey = phaseKey(work.state);
    const moves = this.react();
    if (work.lateKey !== null) await Promise.all(moves);
  }

  /** Hook this to the game's publish. */
  onEvents(events: readonly GameEvent[]): void {
    const work = this.work;
    if (work.stopped) return;
    let personSpoke = false;
    for (const e of events) {
      if (e.type === 'game_ended') {
        this.stop();
        return;
      }
      // The session publishes what is stored while the driver already works on what is decided, so the
      // lynch that opened last words can be heard after the last words began: it must not cancel them.
      if (e.type === 'player_died') work.abort((t) => t.playerId === e.payload.playerId && !t.speaksDead, 'stale');
      else if (e.type === 'mafia_second_round') secondRound(work);
      else if (e.type === 'speech' && e.payload.channel === 'town' && !work.seats.has(e.payload.playerId)) personSpoke = true;
    }
    // The moves it starts are tracked as jobs; only a resume waits for them.
    void this.react();
    // A person spoke: someone may have been addressed, so the discussion may go on.
    if (personSpoke && work.state.phase === 'day') work.job(this.discussion.run());
  }

  /** Aborts all outstanding AI work at once; nothing more is submitted. */
  stop(): void {
    this.work.stop();
  }

  get stopped(): boolean {
    return this.work.stopped;
  }

  /** Resolves when every job has finished (tests and shutdown; with a manual clock, pauses wait for it). */
  idle(): Promise<void> {
    return this.work.idle();
  }

  /** Resolves when no seat waits for its model and no recap for its model (a headless runner may then move a manual clock on). */
  quiet(): Promise<void> {
    return this.work.quiet();
  }

  /** Model decisions and recaps in flight. */
  get pending(): number {
    return this.work.pending;
  }

  /** Whether some job is running or about to: not done and not pausing on the clock. */
  get busy(): boolean {
    return this.work.busy;
  }

  /**
   * Resolves once every job is done or pauses on the clock: then nothing of the driver's moves
   * until the clock does, or the game publishes (a headless runner need not wait a macrotask).
   */
  parked(): Promise<void> {
    return this.work.parked();
  }

  /** Starts what a new phase needs; returns the moves still waiting for a model (night actions, votes). */
  private react(): Promise<void>[] {
    const work = this.work;
    const state = work.state;
    const key = phaseKey(state);
    if (key === this.reacted || work.stopped) return [];
    this.reacted = key;
    work.abort((t) => t.key !== null && t.key !== key, 'stale');
    switch (state.phase) {
      case 'night':
        return nightMoves(work);
      case 'day':
        writeWills(work);
        work.job(this.discussion.run());
        return [];
      case 'defense':
        work.job(defense(work));
        return [];
      case 'vote':
        return votes(work);
      case 'last_words':
        work.job(lastWords(work));
        return [];
      case 'ended':
        this.stop();
        return [];
      default:
        return [];
    }
  }
}
