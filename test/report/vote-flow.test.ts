import { beforeAll, describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { GameState } from '../../src/game/index.ts';
import { factionColour } from '../../src/report/palette.ts';
import { tagged, type Scene, type Shape } from '../../src/report/scene.ts';
import { voteFlowScene } from '../../src/report/vote-flow.ts';
import { TestGame } from '../support/test-game.ts';
import { headlessGame, scriptedGame, trueFaction } from './games.ts';

const fillOf = (s: Shape): string | undefined => (s.kind === 'rect' || s.kind === 'circle' ? s.fill : undefined);
const edgesOn = (scene: Scene, day: number) => tagged(scene, { part: 'vote', day: String(day) });
const headline = (scene: Scene, day: number) => {
  const [h] = tagged(scene, { part: 'headline', day: String(day) });
  return h?.kind === 'text' ? h.text : '';
};

/** The votes of each day as the engine counted them: "voter>target" pairs. */
function talliedVotes(state: GameState): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const e of state.log)
    if (e.type === 'vote_resolved')
      out.set(e.payload.day, e.payload.tally.flatMap((t) => t.voters.map((v) => `${v}>${t.targetId}`)).sort());
  return out;
}

describe('the vote-flow picture of a scripted game', () => {
  it('GIVEN a day with a lynch, a "no lynch" vote and an abstention WHEN drawn THEN there is one arrow per vote, the lynched player is marked and the abstainer is shown without an arrow', () => {
    const { t, mafia, detective, lynched, abstainer, firstVictim } = scriptedGame();
    const scene = voteFlowScene(t.state, 'Game')!;

    const arrows = edgesOn(scene, 1).map((e) => `${e.tags?.voter}>${e.tags?.target}`);
    expect(arrows.sort()).toEqual([`${mafia.id}>${lynched.id}`, `${detective.id}>${lynched.id}`, `${lynched.id}>no_lynch`].sort());
    expect(tagged(scene, { part: 'no-lynch', day: '1' })).toHaveLength(1);
    expect(tagged(scene, { part: 'abstained', day: '1' }).map((s) => s.tags?.id)).toEqual([abstainer.id]);

    expect(tagged(scene, { part: 'player', side: 'target', day: '1', lynched: 'true' }).map((s) => s.tags?.id)).toEqual([lynched.id]);
    expect(tagged(scene, { part: 'lynched', day: '1' }).map((s) => s.tags?.id)).toEqual([lynched.id]);
    expect(tagged(scene, { part: 'lynched-ring', day: '1' }).map((s) => s.tags?.id)).toEqual([lynched.id]);
    expect(headline(scene, 1)).toBe(`Day 1: ${lynched.name} lynched, 2 of 3 votes`);

    // The player killed on night 1 was not there to vote or be voted for.
    expect(tagged(scene, { part: 'player', day: '1', id: firstVictim.id })).toEqual([]);
    expect(tagged(scene, { part: 'player', side: 'voter', day: '1' })).toHaveLength(4);
  });

  it('GIVEN the game ended at night 2 WHEN drawn THEN day 2 has a panel saying there was no vote, and no arrows', () => {
    const { t } = scriptedGame();
    const scene = voteFlowScene(t.state, 'Game')!;
    expect(tagged(scene, { part: 'vote-day' }).map((s) => s.tags?.day)).toEqual(['1', '2']);
    expect(headline(scene, 2)).toBe('Day 2: no vote, the game ended at night 2');
    expect(edgesOn(scene, 2)).toEqual([]);
  });

  it('GIVEN people and AI seats of both sides WHEN drawn THEN each marker has the colour of its true side, people are circles and AI seats squares, and each arrow has its voter’s colour', () => {
    const { t } = scriptedGame();
    const scene = voteFlowScene(t.state, 'Game')!;
    const markers = tagged(scene, { part: 'player' });
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) {
      const id = m.tags!.id!;
      expect(fillOf(m)).toBe(factionColour(trueFaction(t.state, id)));
      expect(m.kind).toBe(t.player(id).kind === 'human' ? 'circle' : 'rect');
    }
    expect(new Set(markers.map((m) => fillOf(m)))).toEqual(new Set([factionColour('mafia'), factionColour('town')]));
    for (const e of tagged(scene, { part: 'vote' }))
      expect(e.kind === 'edge' && e.colour).toBe(factionColour(trueFaction(t.state, e.tags!.voter!)));
  });

  it('GIVEN a game cancelled in the lobby WHEN drawn THEN there is no picture', () => {
    const t = TestGame.lobby(5);
    t.must(engine.cancel(t.state, { by: null, reason: 'no one came', at: t.at }));
    expect(t.state.phase).toBe('ended');
    expect(voteFlowScene(t.state, 'Game')).toBeNull();
  });
});

describe('the vote-flow picture of games played by the offline brain', () => {
  let allAi: GameState;
  let mixed: GameState;
  beforeAll(async () => {
    [allAi, mixed] = [await headlessGame(8, 0, 42), await headlessGame(5, 2, 11)];
  });

  it('GIVEN finished games WHEN drawn THEN each day has exactly the votes the engine counted, one arrow each, and the lynched (if any) marked', () => {
    for (const state of [allAi, mixed]) {
      const scene = voteFlowScene(state, 'Game')!;
      const counted = talliedVotes(state);
      expect(counted.size).toBeGreaterThan(0);
      for (let day = 1; day <= state.day; day++) {
        const arrows = edgesOn(scene, day).map((e) => `${e.tags?.voter}>${e.tags?.target}`);
        expect(arrows.sort()).toEqual(counted.get(day) ?? []);
        const resolved = state.log.find((e) => e.type === 'vote_resolved' && e.payload.day === day);
        const lynchedId = resolved?.type === 'vote_resolved' ? resolved.payload.lynchedId : null;
        expect(tagged(scene, { part: 'lynched', day: String(day) }).map((s) => s.tags?.id)).toEqual(lynchedId ? [lynchedId] : []);
      }
    }
  });

  it('GIVEN a game of people and AI seats WHEN drawn THEN the people are circles and the AI seats squares, in their true colours', () => {
    const scene = voteFlowScene(mixed, 'Game')!;
    const shapes = new Map<string, Set<string>>();
    for (const m of tagged(scene, { part: 'player' })) {
      const id = m.tags!.id!;
      expect(fillOf(m)).toBe(factionColour(trueFaction(mixed, id)));
      shapes.set(m.tags!.kind!, (shapes.get(m.tags!.kind!) ?? new Set()).add(m.kind));
    }
    expect(shapes).toEqual(
      new Map([
        ['ai', new Set(['rect'])],
        ['human', new Set(['circle'])],
      ]),
    );
  });
});
