import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { cacheLifetimesFor } from '../../../src/agents/player/cache-lifetime.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { seatThinker } from '../../../src/agents/player/think.ts';
import * as engine from '../../../src/game/index.ts';
import { RulesSchema, Rng, type RulesInput } from '../../../src/game/index.ts';
import type { FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeProvider } from '../../../scripts/fakes/llm/fake-providers.ts';
import { playingModel } from '../../../scripts/fakes/llm/playing-model.ts';
import { TestGame } from '../../support/test-game.ts';

const ROLES = ['mafia', 'detective', 'doctor', 'townsperson', 'townsperson'] as const;

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The breakpoints of the system blocks a seat's first night call sends to Anthropic, at these rules. */
async function systemMarkers(rules: RulesInput): Promise<unknown[]> {
  const t = TestGame.started([...ROLES], rules);
  const me = t.by('detective');
  const started = await startFakeProvider('anthropic', { script: playingModel() });
  fake = started.fake;
  const voice = { name: me.name, phrases: [] };
  const brain = llmBrain({
    persona: plainPersona(voice),
    model: 'test-model',
    think: seatThinker({ provider: started.provider }),
    fallback: heuristicBrain(voice),
  });
  const request: DecisionRequest = {
    kind: 'night',
    view: engine.viewFor(t.state, me.id)!,
    targets: engine.legalNightTargets(t.state, me.id).map((p) => ({ id: p.id, name: p.name })),
    allowSkip: false,
    beliefs: {},
  };
  await brain(request, new Rng(1));
  return (fake.last.body['system'] as { cache_control?: unknown }[]).map((block) => block.cache_control);
}

describe('how long a seat’s cached prompt lives (Anthropic)', () => {
  it('GIVEN the default phase lengths WHEN a seat asks THEN every part keeps 5 minutes: no seat goes longer between its calls', () => {
    expect(cacheLifetimesFor(RulesSchema.parse({}))).toEqual({});
  });

  it('GIVEN a 5½-minute day WHEN a seat asks THEN every part keeps 5 minutes: only the early speakers’ blocks lapse, cheaper than dearer writes for all', () => {
    expect(cacheLifetimesFor(RulesSchema.parse({ daySeconds: 330 }))).toEqual({});
  });

  it.each([
    ['a 6-minute day', { daySeconds: 360 }],
    ['a 6-minute night with its dawn', { nightSeconds: 350, dawnSeconds: 10 }],
    ['a 5-minute vote with its last words', { voteSeconds: 300, lastWordsSeconds: 61 }],
  ])('GIVEN %s WHEN a seat asks THEN the shared and the seat’s own block get 1 hour, the turn 5 minutes', (_, rules) => {
    expect(cacheLifetimesFor(RulesSchema.parse(rules))).toEqual({ shared: '1h', stable: '1h' });
  });

  it('GIVEN a 10-minute day WHEN a seat calls its model on Anthropic THEN its shared and stable breakpoints are sent with ttl 1h; at the default day, bare', async () => {
    expect(await systemMarkers({ daySeconds: 600 })).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral', ttl: '1h' },
      undefined,
    ]);
    await fake?.close();
    expect(await systemMarkers({})).toEqual([{ type: 'ephemeral' }, { type: 'ephemeral' }, undefined]);
  });
});
