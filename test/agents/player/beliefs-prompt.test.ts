import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { mindStoreOver, type MindRows } from '../../../src/agents/minds.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import { turnContext } from '../../../src/agents/player/prompt.ts';
import { votingBlocsOf } from '../../../src/agents/voting-blocs.ts';
import * as engine from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

const ROLES = ['mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

/** Two days of votes: the Mafia member and the first Townsperson vote alike both days; the rest split. */
function twoVotes(): TestGame {
  const t = TestGame.started([...ROLES]);
  const [mafia, a, b, c, d] = [
    t.by('mafia'),
    t.by('townsperson', 0),
    t.by('townsperson', 1),
    t.by('townsperson', 2),
    t.by('townsperson', 3),
  ];
  t.advanceTo('vote');
  t.must(t.vote(mafia, b));
  t.must(t.vote(a, b));
  t.must(t.vote(c, d));
  t.advanceTo('night');
  t.advanceTo('vote');
  t.must(t.vote(mafia, c));
  t.must(t.vote(a, c));
  t.must(t.vote(d, mafia));
  t.advanceTo('night');
  return t;
}

function speakRequest(t: TestGame, playerId: string, beliefs: DecisionRequest['beliefs'] = {}): DecisionRequest {
  return { kind: 'vote', view: engine.viewFor(t.state, playerId)!, targets: [], allowSkip: true, beliefs };
}

describe('role guesses and voting blocs in a seat’s mind', () => {
  it('GIVEN two days on which two players voted alike WHEN the blocs are worked out THEN that pair is a bloc of 2 of 2 days, and no pair that split is', () => {
    const t = twoVotes();
    const blocs = votingBlocsOf(engine.viewFor(t.state, t.by('doctor').id)!);
    expect(blocs).toEqual([{ players: [t.by('mafia').id, t.by('townsperson', 0).id].sort(), together: 2, of: 2 }]);
  });

  it('GIVEN a seat with a role guess and blocs in view WHEN its prompt is built THEN it shows the seat its own guess and the bloc', () => {
    const t = twoVotes();
    const detective = t.by('detective');
    const prompt = turnContext(
      speakRequest(t, t.by('doctor').id, {
        [detective.id]: { suspicion: 0.1, trust: 0.9, reason: 'results hold up', roleGuess: 'detective' },
      }),
    );
    expect(prompt).toContain(`- ${detective.name}: suspicion 0.10, trust 0.90, likely Detective — results hold up`);
    expect(prompt).toContain('# Voting blocs you see');
    expect(prompt).toMatch(
      new RegExp(
        `- (${t.by('mafia').name} and ${t.by('townsperson', 0).name}|${t.by('townsperson', 0).name} and ${t.by('mafia').name}): the same vote on 2 of 2 days`,
      ),
    );
  });

  it('GIVEN the answer schema WHEN built THEN each read carries a nullable roleGuess of the game’s role ids, one schema for the game', () => {
    const t = TestGame.started([...ROLES]);
    const view = engine.viewFor(t.state, t.by('doctor').id)!;
    const schema = JSON.stringify(decisionJsonSchema(view));
    expect(schema).toContain('"roleGuess"');
    for (const id of engine.ROLE_IDS) expect(schema).toContain(`"${id}"`);
    expect(decisionJsonSchema(engine.viewFor(t.state, t.by('mafia').id)!)).toBe(decisionJsonSchema(view));
  });

  it('GIVEN a model that guesses one role in play and one not in play WHEN its answer is read THEN the first is kept and the second dropped, not re-asked', () => {
    const t = TestGame.started([...ROLES]);
    t.advanceTo('day');
    const me = t.by('doctor');
    const [det, town] = [t.by('detective'), t.by('townsperson')];
    const answer = {
      observations: '',
      analysis: '',
      beliefs: [
        { player: det.name, suspicion: 0.1, trust: 0.9, reason: 'claims', roleGuess: 'detective' },
        { player: town.name, suspicion: 0.2, trust: 0.5, reason: 'odd', roleGuess: 'godfather' },
      ],
      strategy: '',
      decision: '(nobody)',
      speech: 'Hello.',
      urgency: 1,
    };
    const read = interpret({ kind: 'speak', view: engine.viewFor(t.state, me.id)!, targets: [], allowSkip: false, beliefs: {} }, answer);
    expect(read.ok && read.value.beliefs[det.id]?.roleGuess).toBe('detective');
    expect(read.ok && read.value.beliefs[town.id]?.roleGuess).toBeUndefined();
  });

  it('GIVEN a mind with guesses and blocs WHEN saved and loaded THEN both come back; a row saved before blocs loads its reads with none', async () => {
    const rows = new Map<string, { memory: unknown; beliefs: unknown }>();
    const liveGame: MindRows = {
      saveMind: (_game, player, mind) => Promise.resolve(void rows.set(player, mind)),
      loadMinds: () => Promise.resolve(Object.fromEntries(rows) as Awaited<ReturnType<MindRows['loadMinds']>>),
    };
    const store = mindStoreOver(liveGame);
    const bloc = { players: ['a', 'b'] as [string, string], together: 2, of: 2 };
    await store.save('g', 'me', {
      beliefs: { a: { suspicion: 0.2, trust: 0.8, reason: 'claims', roleGuess: 'detective' } },
      memory: [],
      blocs: [bloc],
    });
    rows.set('old', { memory: ['fact'], beliefs: { a: { suspicion: 0.5, trust: 0.5, reason: 'old read' } } });
    const minds = await store.load('g');
    expect(minds.me).toEqual({
      beliefs: { a: { suspicion: 0.2, trust: 0.8, reason: 'claims', roleGuess: 'detective' } },
      memory: [],
      blocs: [bloc],
    });
    expect(minds.old).toEqual({ beliefs: { a: { suspicion: 0.5, trust: 0.5, reason: 'old read' } }, memory: ['fact'], blocs: [] });
  });
});
