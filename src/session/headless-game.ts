import { setImmediate as nextTurn } from 'node:timers/promises';
import { AiDriver, type AiDriverOptions } from '../agents/driver/ai-driver.ts';
import { AiSeats, type AiSeat, type MindStore } from '../agents/ai-seats.ts';
import type { Summarizer } from '../agents/summary.ts';
import { ManualTimers } from '../clock.ts';
import * as engine from '../game/index.ts';
import type { GameEvent, GameState, SettingsInput } from '../game/index.ts';
import { err, ok, type Result } from '../result.ts';
import { GameSession, type SessionDeps } from './game-session.ts';

/** The bot's pause after an AI speech; headless games keep it, on their manual clock. */
const SPEECH_GAP_MS = 4000;

export interface HeadlessOptions {
  readonly gameId: string;
  readonly seed: number;
  readonly seats: readonly AiSeat[];
  /** Seats of people, joined as humans after the AI seats; the caller plays them (through `onEvents` and the clock). */
  readonly humans?: readonly { readonly id: string; readonly name: string }[];
  readonly settings?: SettingsInput;
  /** A started game to go on with instead of a new one (a restarted process). */
  readonly from?: GameState;
  /** The manual clock (default one starting at `startAt`, or 0); pass it when the seats' models run on it too. */
  readonly clock?: ManualTimers;
  readonly startAt?: number;
  /**
   * `when-idle` (default): the clock moves only once no seat waits for its model, so a model's
   * latency costs no game time (the demo; games against a wire fake). `virtual`: the models wait on
   * the manual clock too, so a phase can run out on them (the realtime bench, the deadline test).
   */
  readonly time?: 'when-idle' | 'virtual';
  /**
   * With `virtual` time, work outside the process that runs on this clock too (a model server
   * whose latency is on it): resolves once all of it waits on the clock, true if it had to wait
   * first. The clock moves only then, so the same seed plays the same game.
   */
  readonly outsideWork?: () => Promise<boolean>;
  readonly summarizer?: Summarizer;
  readonly minds?: MindStore;
  readonly recordReasoning?: boolean;
  readonly speechGapMs?: number;
  readonly driver?: Pick<AiDriverOptions, 'onFallback' | 'onError' | 'speechTurnMs' | 'maxSpeechesPerDay' | 'thinking'>;
  /** Persists each accepted command (default: kept in memory only). */
  readonly save?: SessionDeps['save'];
  /** Every accepted batch of events, just before the AI driver hears it (live output, the bench's people). */
  readonly onEvents?: (events: readonly GameEvent[], state: GameState) => void;
}

export interface HeadlessGame {
  readonly session: GameSession;
  readonly driver: AiDriver;
  readonly clock: ManualTimers;
  /** Plays to the end: lets the game settle, moves the clock to the next timer, and again. */
  run(): Promise<Result<GameState, string>>;
}

const MAX_STEPS = 20_000;

/**
 * A game with no Discord: the bot's own session (single writer, deadlines) and AI driver, on a
 * manual clock that jumps to the next deadline or pause once the game has settled. The demo, the
 * bench and the tests play through this, so they measure the AI seats players meet.
 */
export function createHeadless(options: HeadlessOptions): Result<HeadlessGame, string> {
  const clock = options.clock ?? new ManualTimers(options.startAt ?? 0);
  const started = options.from ? ok(options.from) : startGame(options, clock.now());
  if (!started.ok) return started;
  const session = new GameSession(started.value, {
    timers: clock,
    save: options.save ?? keptInMemory,
    // The caller hears a change before the AI react to it (a bench attributes their calls to the new phase).
    publish: (events, state) => {
      options.onEvents?.(events, state);
      driver.onEvents(events);
    },
  });
  const aiSeats = new AiSeats(options.seats, options.minds);
  // Declared after the session it drives: the session publishes nothing until run() opens it.
  const driver = new AiDriver(session, aiSeats, {
    clock,
    speechGapMs: options.speechGapMs ?? SPEECH_GAP_MS,
    ...(options.summarizer && { summarizer: options.summarizer }),
    ...(options.recordReasoning !== undefined && { recordReasoning: options.recordReasoning }),
    untimed: options.time !== 'virtual',
    ...options.driver,
  });
  const virtual = options.time === 'virtual';
  const game: HeadlessGame = {
    session,
    driver,
    clock,
    async run() {
      await aiSeats.load(session.state.id);
      if (!options.from) options.onEvents?.(session.state.log, session.state);
      session.open();
      await driver.resume();
      for (let step = 0; session.state.phase !== 'ended'; step++) {
        if (step > MAX_STEPS) return err(`game ${session.state.id} did not end in ${MAX_STEPS} steps`);
        if (options.onEvents || options.outsideWork || virtual) await settle(session, driver, virtual, options.outsideWork);
        else await settleDriven(session, driver);
        if (isOver(session)) break;
        if (!clock.fireNext()) return err(`game ${session.state.id} is stuck in ${session.state.phase}: nothing is scheduled`);
      }
      driver.stop();
      await driver.idle();
      await session.settled();
      return ok(session.state);
    },
  };
  return ok(game);
}

/** Creates, seats and starts an all-AI (or mixed) game, then plays it to the end. */
export async function playHeadless(options: HeadlessOptions): Promise<Result<GameState, string>> {
  const game = createHeadless(options);
  return game.ok ? game.value.run() : game;
}

const isOver = (session: GameSession): boolean => session.state.phase === 'ended';

// Nothing to store: every write answers with the same settled promise, not a new one each time.
const STORED: Promise<Result<void, never>> = Promise.resolve(ok(undefined));
const keptInMemory = (): Promise<Result<void, never>> => STORED;

function startGame(options: HeadlessOptions, at: number): Result<GameState, string> {
  const created = engine.createGame({ gameId: options.gameId, seed: options.seed, settings: options.settings, at });
  if (!created.ok) return err(created.error.message);
  let state = created.value.state;
  const players = [
    ...options.seats.map((s) => ({ id: s.id, name: s.name, kind: 'ai' as const })),
    ...(options.humans ?? []).map((h) => ({ id: h.id, name: h.name, kind: 'human' as const })),
  ];
  for (const player of players) {
    const joined = engine.join(state, { player, at });
    if (!joined.ok) return err(joined.error.message);
    state = joined.value.state;
  }
  const begun = engine.start(state, { at });
  return begun.ok ? ok(begun.value.state) : err(begun.error.message);
}

/**
 * `settle` for a game only the session and the AI driver move (no caller's work, models off the
 * clock): waits until no seat waits for its model, every change is stored and published, and
 * every driver job is done or pauses on the clock. Each of those is awaited as such, so no
 * macrotask turn is needed to let unseen work run (a game took some 45 of them).
 */
async function settleDriven(session: GameSession, driver: AiDriver): Promise<void> {
  for (;;) {
    // Awaited only when there is something to wait for: most clock steps find the game quiet at once.
    if (driver.pending > 0) await driver.quiet();
    if (session.writing) await session.settled();
    if (!driver.busy && !session.writing && driver.pending === 0) return;
    await driver.parked();
  }
}

/**
 * Waits until nothing moves without the clock: every command applied, every job that needs no
 * timer done, (unless models run on the manual clock) no seat waiting for its model, and outside
 * work waiting on the clock; what came back while it waited may move the game again.
 */
async function settle(
  session: GameSession,
  driver: AiDriver,
  virtual: boolean,
  outsideWork: HeadlessOptions['outsideWork'],
): Promise<void> {
  for (;;) {
    const before = session.submissions;
    if (!virtual) await driver.quiet();
    await session.settled();
    await nextTurn();
    if (session.submissions !== before || (!virtual && driver.pending > 0)) continue;
    if (!(await outsideWork?.())) return;
  }
}
