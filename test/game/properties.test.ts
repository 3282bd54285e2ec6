import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { Change, GameError, GameState, RulesInput } from '../../src/game/index.ts';
import type { Result } from '../../src/result.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { randomBrain } from '../../src/agents/heuristic/random-brain.ts';
import { leaksIn } from '../support/leaks.ts';
import { walkLog } from '../support/walk-log.ts';
import { counted, propertyRuns } from '../support/property-size.ts';

// A thousand games are a fixed amount of pure CPU work: about 10 s on an idle 2-core machine, over
// a minute when the cores are shared. The default 60 s test timeout is no bound for that.
const THOUSAND_GAMES_TIMEOUT_MS = 600_000;
const GAMES = propertyRuns(1000);

const rulesArb: fc.Arbitrary<RulesInput> = fc.record({
  doctorSelfProtect: fc.boolean(),
  doctorRepeatProtect: fc.boolean(),
  revealRoleOnDeath: fc.boolean(),
  voteMode: fc.constantFrom('plurality', 'majority'),
  allowNoLynch: fc.boolean(),
  lastWills: fc.boolean(),
  nightOneKill: fc.boolean(),
  vigilanteShots: fc.integer({ min: 1, max: 3 }),
  lastWordsSeconds: fc.constantFrom(0, 30),
  dayStyle: fc.constantFrom('auto', 'open', 'trial'),
  nominationSeconds: fc.boolean(),
  maxNominees: fc.integer({ min: 1, max: 3 }),
});

/**
 * No broken rule among `problems`. The checks below run at every step of a thousand games: expect()
 * costs more than a step, so it is called only to report what broke.
 */
function expectNone(problems: readonly string[]): void {
  if (problems.length > 0) expect(problems).toEqual([]);
}

/** A trial day's rules hold: only living nominees stand, the defendant is one of them, votes go to them (or no lynch). */
function checkTrial(state: GameState): void {
  const standing = engine.nominees(state);
  const problems: string[] = [];
  if (standing.length > state.settings.rules.maxNominees) problems.push(`${standing.length} nominees stand`);
  for (const id of standing) if (engine.findPlayer(state, id)?.alive !== true) problems.push(`nominee ${id} is not alive`);
  if (state.phase === 'defense' && !standing.includes(state.trial.defendant!))
    problems.push(`defendant ${state.trial.defendant} is no nominee`);
  if (state.settings.rules.dayStyle !== 'trial' && state.trial.nominations.length > 0) problems.push('nominations on a day with no trial');
  else if (state.settings.rules.dayStyle === 'trial' && state.phase === 'vote') {
    for (const [voter, target] of Object.entries(state.votes)) {
      if (target !== 'no_lynch' && !standing.includes(target)) problems.push(`${voter} voted for ${target}, who is no nominee`);
    }
  }
  expectNone(problems);
}

/** The outcome agrees with who is alive: exactly one faction won, or a declared draw or cancellation. */
function checkOutcome(state: GameState): void {
  expect(state.phase).toBe('ended');
  const living = state.players.filter((p) => p.alive);
  const mafia = living.filter((p) => engine.isMafia(p.role)).length;
  const outcome = state.outcome!;
  if (outcome.kind === 'win' && outcome.faction === 'town') expect(mafia).toBe(0);
  else if (outcome.kind === 'win') expect(mafia).toBeGreaterThanOrEqual(living.length - mafia);
  else if (outcome.kind === 'draw') {
    expect(mafia).toBeGreaterThan(0);
    expect(mafia).toBeLessThan(living.length - mafia);
  }
  for (const jester of state.jesterWinners) {
    expect(state.players.find((p) => p.id === jester)).toMatchObject({ role: 'jester', death: { cause: 'lynch' } });
  }
  expect(state.log.filter((e) => e.type === 'game_ended')).toHaveLength(1);
}

/**
 * No accepted action, vote or speech came from a player who was dead at that moment. Returns the
 * state the log folds back to, for the caller to compare with the game's.
 */
function checkDeadNeverAct(state: GameState): GameState {
  return walkLog(state.log, (s, e) => {
    const actor =
      e.type === 'night_action' || e.type === 'mafia_proposal'
        ? e.payload.actorId
        : e.type === 'vote_cast'
          ? e.payload.voterId
          : e.type === 'speech' && e.payload.channel !== 'last_words'
            ? e.payload.playerId
            : e.type === 'will_written'
              ? e.payload.playerId
              : null;
    if (actor && engine.findPlayer(s, actor)?.alive !== true) expect.fail(`#${e.seq} ${e.type} by ${actor}, who was not alive`);
  });
}

function checkViews(state: GameState): void {
  expectNone(state.players.flatMap((p) => leaksIn(state, engine.viewFor(state, p.id)!).map((leak) => `${p.id} ${leak}`)));
}

describe('property: whole games played by the offline brains', () => {
  it(
    `GIVEN ${counted(GAMES)} random seeded games (5–16 seats, random rules, heuristic and random seats) WHEN played out THEN every game ends consistently, the dead never act, views never leak and the log folds back to the state`,
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          fc.integer({ min: 5, max: 16 }),
          rulesArb,
          fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
          async (seed, players, rules, smart) => {
            const seats = Array.from({ length: players }, (_, i) => ({
              id: `s${i}`,
              name: `Seat ${i}`,
              brain: smart[i] ? heuristicBrain() : randomBrain(),
            }));
            const result = await playHeadless({ gameId: `prop-${seed}`, seed, seats, settings: { rules } });
            if (!result.ok) throw new Error(result.error);
            const state = result.value;
            checkOutcome(state);
            const folded = checkDeadNeverAct(state);
            checkViews(state);
            expect(folded).toEqual(state);
          },
        ),
        { numRuns: GAMES },
      );
    },
    THOUSAND_GAMES_TIMEOUT_MS,
  );
});

/** Random commands from anyone, legal or not: refusals change nothing, and the game still ends. */
describe('property: chaos at the table', () => {
  it(
    `GIVEN ${counted(GAMES)} seeded games fed random commands from random players WHEN refused THEN nothing changes; WHEN accepted THEN the rules hold at every phase`,
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 5, max: 12 }), rulesArb, (seed, count, rules) => {
          const rng = engine.createRng(seed, 'chaos');
          let at = 0;
          let state = (
            engine.createGame({ gameId: 'chaos', seed, settings: { rules: { ...rules, maxQuietCycles: 2 } }, at }) as Extract<
              Result<Change, GameError>,
              { ok: true }
            >
          ).value.state;
          for (let i = 0; i < count; i++) {
            const joined = engine.join(state, { player: { id: `c${i}`, name: `C${i}`, kind: 'human' }, at });
            if (joined.ok) state = joined.value.state;
          }
          const started = engine.start(state, { at });
          if (!started.ok) throw new Error(started.error.message);
          state = started.value.state;
          const ids = [...state.players.map((p) => p.id), 'ghost'];
          let phaseKey = '';
          for (let step = 0; step < 3000 && state.phase !== 'ended'; step++) {
            const who = rng.pick(ids);
            const target = rng.pick([...ids, null]);
            const before = state;
            const result: Result<Change, GameError> = (() => {
              switch (rng.int(0, 8)) {
                case 5:
                  return engine.nominate(state, { playerId: who, targetId: target ?? 'ghost', at: ++at });
                case 6:
                  return engine.second(state, { playerId: who, targetId: target ?? 'ghost', at: ++at });
                case 7:
                  return engine.restDefense(state, { playerId: who, at: ++at });
                case 0:
                  return engine.act(state, { actorId: who, targetId: target, at: ++at });
                case 1:
                  return engine.vote(state, { voterId: who, targetId: target ?? 'no_lynch', at: ++at });
                case 2:
                  return engine.speak(state, {
                    playerId: who,
                    channel: rng.pick(['town', 'mafia', 'last_words'] as const),
                    text: `step ${step}`,
                    at: ++at,
                  });
                case 3:
                  return engine.writeWill(state, { playerId: who, text: `⟨will of ${who} at ${step}⟩`, at: ++at });
                case 4:
                  return engine.unvote(state, { voterId: who, at: ++at });
                default:
                  at = Math.max(at, (state.deadline ?? at) - (rng.chance(0.3) ? 1 : 0));
                  return engine.advance(state, { at });
              }
            })();
            if (!result.ok) {
              if (state !== before) expect(state).toBe(before);
              continue;
            }
            state = result.value.state;
            checkTrial(state);
            const key = `${state.phase}${state.day}`;
            if (key !== phaseKey) {
              phaseKey = key;
              checkViews(state);
            }
          }
          while (state.phase !== 'ended') {
            at = Math.max(at, state.deadline ?? at);
            const advanced = engine.advance(state, { at });
            if (!advanced.ok) throw new Error(advanced.error.message);
            state = advanced.value.state;
          }
          checkOutcome(state);
          const folded = checkDeadNeverAct(state);
          checkViews(state);
          expect(folded).toEqual(state);
        }),
        { numRuns: GAMES },
      );
    },
    THOUSAND_GAMES_TIMEOUT_MS,
  );
});
