import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import * as engine from '../../../src/game/index.ts';
import { Table } from '../../support/game-table.ts';

function voteRequest(): { t: Table; request: DecisionRequest } {
  const t = Table.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
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
  it('GIVEN a vote request WHEN its JSON Schema is built THEN the decision is an enum of exactly the legal targets plus no lynch, in reasoning order', () => {
    const { request } = voteRequest();
    const schema = decisionJsonSchema(request) as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(schema.properties.decision!.enum).toEqual([...request.targets.map((t) => t.name), '(no lynch)']);
    expect(Object.keys(schema.properties)).toEqual(['observations', 'analysis', 'beliefs', 'strategy', 'decision', 'speech', 'urgency']);
  });

  it('GIVEN a legal vote with matching speech WHEN interpreted THEN it becomes the decision with beliefs keyed by player id', () => {
    const { t, request } = voteRequest();
    const target = t.by('mafia');
    const read = interpret(request, { ...answer(target.name, `I vote ${target.name}.`), beliefs: [{ player: target.name, suspicion: 0.9, trust: 0.1, reason: 'dodgy' }] });
    expect(read).toMatchObject({ ok: true, decision: { targetId: target.id, speech: `I vote ${target.name}.`, urgency: 2 } });
    expect(read.ok && read.decision.beliefs[target.id]).toEqual({ suspicion: 0.9, trust: 0.1, reason: 'dodgy' });
  });

  it('GIVEN a target that is not an option (dead, self or made up) WHEN interpreted THEN it is refused with the options listed', () => {
    const { t, request } = voteRequest();
    const read = interpret(request, answer(t.by('townsperson').name));
    expect(read).toMatchObject({ ok: false, problem: expect.stringMatching(/^Field "decision"/) });
  });

  it('GIVEN speech that announces a different target than the vote WHEN interpreted THEN the contradiction is named', () => {
    const { t, request } = voteRequest();
    const read = interpret(request, answer(t.by('mafia').name, `I'm voting ${t.by('doctor').name}, sorry.`));
    expect(read).toEqual({ ok: false, problem: expect.stringContaining(`names ${t.by('doctor').name} as your vote but your decision is ${t.by('mafia').name}`) });
  });

  it('GIVEN no structured answer at all WHEN interpreted THEN it asks for the JSON fields', () => {
    const { request } = voteRequest();
    expect(interpret(request, undefined)).toMatchObject({ ok: false });
  });

  it('GIVEN "(no lynch)" WHEN interpreted THEN the vote is no_lynch', () => {
    const { request } = voteRequest();
    expect(interpret(request, answer('(no lynch)'))).toMatchObject({ ok: true, decision: { targetId: 'no_lynch' } });
  });
});
