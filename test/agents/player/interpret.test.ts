import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import * as engine from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';
import { stringContaining, stringMatching } from '../../support/matchers.ts';

function voteRequest(): { t: TestGame; request: DecisionRequest } {
  const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
  t.advanceTo('vote');
  const me = t.by('townsperson');
  const request: DecisionRequest = {
    kind: 'vote',
    view: engine.viewFor(t.state, me.id)!,
    targets: engine.legalVoteTargets(t.state, me.id).map((p) => ({ id: p.id, name: p.name })),
    allowSkip: true,
    beliefs: {},
  };
  return { t, request };
}

const answer = (decision: string, speech = '') => ({
  observations: 'x',
  analysis: 'y',
  beliefs: [],
  strategy: 'z',
  decision,
  speech,
  urgency: 2,
});

describe('reading a model’s answer', () => {
  it('GIVEN any request of a game WHEN its JSON Schema is built THEN it is the same for every seat and kind: every seated name plus (nobody) and (no lynch), in reasoning order', () => {
    const { t, request } = voteRequest();
    const schema = decisionJsonSchema(request.view) as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(schema.properties.decision!.enum).toEqual([...t.state.players.map((p) => p.name), '(nobody)', '(no lynch)']);
    expect(Object.keys(schema.properties)).toEqual(['observations', 'analysis', 'beliefs', 'strategy', 'decision', 'speech', 'urgency']);
    const other = engine.viewFor(t.state, t.by('mafia').id)!;
    expect(JSON.stringify(decisionJsonSchema(other))).toBe(JSON.stringify(schema));
  });

  it('GIVEN a legal vote with matching speech WHEN interpreted THEN it becomes the decision with beliefs keyed by player id', () => {
    const { t, request } = voteRequest();
    const target = t.by('mafia');
    const read = interpret(request, {
      ...answer(target.name, `I vote ${target.name}.`),
      beliefs: [{ player: target.name, suspicion: 0.9, trust: 0.1, reason: 'dodgy' }],
    });
    expect(read).toMatchObject({ ok: true, value: { targetId: target.id, speech: `I vote ${target.name}.`, urgency: 2 } });
    expect(read.ok && read.value.beliefs[target.id]).toEqual({ suspicion: 0.9, trust: 0.1, reason: 'dodgy' });
  });

  it('GIVEN a seated player who is not an option now (self) WHEN interpreted THEN it is refused with the options listed', () => {
    const { t, request } = voteRequest();
    const read = interpret(request, answer(t.by('townsperson').name));
    expect(read).toMatchObject({ ok: false, error: stringMatching(/is not one of your options now: .*\(no lynch\)/) });
  });

  it('GIVEN a name nobody has WHEN interpreted THEN the schema refuses it', () => {
    const { request } = voteRequest();
    expect(interpret(request, answer('Nobody Real'))).toMatchObject({ ok: false, error: stringMatching(/^Field "decision"/) });
  });

  it('GIVEN fields longer than their stated length WHEN interpreted THEN they are cut, not refused', () => {
    const { t, request } = voteRequest();
    const long = 'word '.repeat(200);
    const read = interpret(request, { ...answer(t.by('mafia').name, long), analysis: long });
    expect(read.ok).toBe(true);
    if (read.ok) {
      expect(read.value.speech!.length).toBeLessThanOrEqual(300);
      expect(read.value.reasoning.split('\n')[1]!.length).toBeLessThanOrEqual('Analysis: '.length + 320);
    }
  });

  it('GIVEN speech that announces a different target than the vote WHEN interpreted THEN the contradiction is named', () => {
    const { t, request } = voteRequest();
    const read = interpret(request, answer(t.by('mafia').name, `I'm voting ${t.by('doctor').name}, sorry.`));
    expect(read).toEqual({
      ok: false,
      error: stringContaining(`names ${t.by('doctor').name} as your vote but your decision is ${t.by('mafia').name}`),
    });
  });

  it('GIVEN no structured answer at all WHEN interpreted THEN it asks for the JSON fields', () => {
    const { request } = voteRequest();
    expect(interpret(request, undefined)).toMatchObject({ ok: false });
  });

  it('GIVEN "(no lynch)" WHEN interpreted THEN the vote is no_lynch', () => {
    const { request } = voteRequest();
    expect(interpret(request, answer('(no lynch)'))).toMatchObject({ ok: true, value: { targetId: 'no_lynch' } });
  });
});
