import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { legalTargets } from '../../src/agents/ai-seats.ts';
import type { DecisionRequest } from '../../src/agents/decision.ts';
import { phaseLengthMs } from '../../src/agents/driver/deadlines.ts';
import * as engine from '../../src/game/index.ts';
import type { GameEvent, GameState } from '../../src/game/index.ts';
import type { HeadlessGame } from '../../src/session/headless-game.ts';

export interface PeopleShape {
  /** Share of moves a person makes at all (the rest they forget, as people do). */
  readonly actShare: number;
  /** Share of days on which a person says something, naming their top suspect. */
  readonly speakShare: number;
  /**
   * Share of what a person says that they edit or delete later in the same phase, as people do
   * (half each; none when unset). Such a message carries `withdrawnTag(ref)`, which the edit
   * drops, so the words withdrawn can be looked for wherever the game shows them.
   */
  readonly withdrawShare?: number;
}

/** The mark a person's message carries when they will edit or delete it (`ref`: its message id). */
export function withdrawnTag(ref: string): string {
  return `(message ${ref})`;
}

/**
 * People at a headless table: each living person makes their night action and vote at a random
 * moment of the phase (chosen as the offline brain would), sometimes not at all, and now and then
 * says something in the day, all on the game's manual clock.
 */
export function simulatedPeople(ids: readonly string[], random: () => number, shape: PeopleShape = { actShare: 0.9, speakShare: 0.5 }) {
  let game: HeadlessGame | null = null;
  const brain = heuristicBrain();
  const request = (state: GameState, id: string, kind: 'night' | 'vote' | 'speak' | 'defense'): DecisionRequest | null => {
    const view = engine.viewFor(state, id);
    if (!view) return null;
    const targets = legalTargets(state, id, kind);
    return { kind, view, targets: targets.map((t) => ({ id: t.id, name: t.name })), allowSkip: kind !== 'defense', beliefs: {} };
  };
  const later = (state: GameState, run: (now: GameState) => void): void => {
    if (!game || random() > shape.actShare) return;
    const { clock, session } = game;
    const when = clock.now() + random() * 0.9 * phaseLengthMs(state.settings.rules, state.phase);
    const key = `${state.day}:${state.phase}`;
    clock.at(when, () => {
      const now = session.state;
      if (`${now.day}:${now.phase}` === key) run(now);
    });
  };
  return {
    attach(headless: HeadlessGame): void {
      game = headless;
    },
    onEvents(events: readonly GameEvent[], state: GameState): void {
      if (!game || !events.some((e) => e.type === 'phase_started')) return;
      const { session } = game;
      for (const id of ids) {
        const me = engine.findPlayer(state, id);
        if (!me?.alive) continue;
        const rng = engine.createRng(state.seed, 'person', me.seat, state.log.length);
        if (state.phase === 'night' && engine.hasNightAction(state, me)) {
          later(state, (now) => {
            const req = request(now, id, 'night');
            if (req) void session.submit((s, at) => engine.act(s, { actorId: id, targetId: brain(req, rng).targetId, at }));
          });
        } else if (state.phase === 'vote') {
          later(state, (now) => {
            const req = request(now, id, 'vote');
            if (req) void session.submit((s, at) => engine.vote(s, { voterId: id, targetId: brain(req, rng).targetId ?? 'no_lynch', at }));
          });
        } else if (state.phase === 'defense' && state.trial.defendant === id) {
          // A person on trial types their defense within the box (the town listens).
          later(state, (now) => {
            const req = request(now, id, 'defense');
            const text = req ? brain(req, rng).speech : null;
            if (text) void session.submit((s, at) => engine.speak(s, { playerId: id, channel: 'town', text, at }));
          });
        } else if (state.phase === 'day' && random() < shape.speakShare) {
          later(state, (now) => {
            const req = request(now, id, 'speak');
            const said = req ? brain(req, rng) : null;
            const text = said?.speech;
            // In a trial day a person nominates (or seconds) as the brain would.
            const nominee = said?.targetId;
            if (nominee) void session.submit((s, at) => engine.nominate(s, { playerId: id, targetId: nominee, at }));
            if (!text) return;
            const withdrawShare = shape.withdrawShare ?? 0;
            if (withdrawShare === 0 || random() >= withdrawShare) {
              void session.submit((s, at) => engine.speak(s, { playerId: id, channel: 'town', text, at }));
              return;
            }
            const ref = `${id}:${now.log.length}`;
            const deletes = random() < 0.5;
            void session.submit((s, at) =>
              engine.speak(s, { playerId: id, channel: 'town', text: `${text} ${withdrawnTag(ref)}`, at, ref }),
            );
            later(
              now,
              () =>
                void session.submit((s, at) =>
                  deletes ? engine.deleteSpeeches(s, { refs: [ref], at }) : engine.editSpeech(s, { ref, text, at }),
                ),
            );
          });
        }
      }
    },
  };
}
