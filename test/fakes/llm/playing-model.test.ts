import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionKind, DecisionRequest } from '../../../src/agents/decision.ts';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { turnContext } from '../../../src/agents/player/prompt.ts';
import { seatThinker } from '../../../src/agents/player/think.ts';
import { FIELD_LIMITS } from '../../../src/agents/player/turn-lengths.ts';
import * as engine from '../../../src/game/index.ts';
import { Rng, type PlayerState } from '../../../src/game/index.ts';
import type { ProviderName } from '../../../src/llm/types.ts';
import { DEFAULT_MODELS } from '../../../src/models.ts';
import type { FakeLlmServer, FakeRequest } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider } from '../../../scripts/fakes/llm/fake-providers.ts';
import { playingAnswer } from '../../../scripts/fakes/llm/playing-answer.ts';
import { ILLEGAL_ANSWER_RATE, playingModel } from '../../../scripts/fakes/llm/playing-model.ts';
import { objectContaining, stringContaining } from '../../support/matchers.ts';
import { TestGame } from '../../support/test-game.ts';

function requestOf(t: TestGame, me: PlayerState, kind: DecisionKind): DecisionRequest {
  const targets = kind === 'vote' ? engine.legalVoteTargets(t.state, me.id) : engine.legalNightTargets(t.state, me.id);
  return {
    kind,
    view: engine.viewFor(t.state, me.id)!,
    targets: targets.map((p) => ({ id: p.id, name: p.name })),
    allowSkip: kind === 'vote',
    beliefs: {},
  };
}

const ROLES = ['mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

/** The first vote of a game where nobody spoke: every field may be written at its full length. */
function firstVote(): TestGame {
  const t = TestGame.started([...ROLES]);
  t.advanceTo('day');
  t.advanceTo('vote');
  return t;
}

/** The second night: the seats have a day behind them to read about. */
function secondNight(): TestGame {
  const t = TestGame.started([...ROLES]);
  t.advanceTo('day');
  t.advanceTo('night');
  return t;
}

/** A decision request as the fake server would have parsed it: the task as the last user turn, the seed drawn. */
function onTheWire(request: DecisionRequest, seed: number): FakeRequest {
  return {
    index: 0,
    at: 0,
    arrivedAt: 0,
    seed,
    path: '/v1/chat/completions',
    headers: {},
    body: {},
    stream: false,
    model: 'gpt-test',
    system: '',
    tools: [],
    outputName: 'decision',
    outputSchema: decisionJsonSchema(request.view),
    transcript: [{ role: 'user', text: turnContext(request) }],
    lastUserText: turnContext(request),
    toolResults: [],
  };
}

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the playing model', () => {
  it('GIVEN a vote with full lengths WHEN answered at each level THEN terse writes 70 % of each stated length and two reads, typical all of it, verbose all of it and a read on every living player', () => {
    const t = firstVote();
    const me = t.by('townsperson');
    const request = requestOf(t, me, 'vote');
    const task = turnContext(request);
    const schema = decisionJsonSchema(request.view);
    const living = t.state.players.filter((p) => p.alive && p.id !== me.id).length;

    const terse = playingAnswer(task, schema, 0, { level: 'terse' });
    const typical = playingAnswer(task, schema, 0, { level: 'typical' });
    const verbose = playingAnswer(task, schema, 0, { level: 'verbose' });

    expect(String(terse['analysis'])).toHaveLength(Math.round(FIELD_LIMITS.analysis * 0.7));
    expect(terse['beliefs']).toHaveLength(2);
    expect(String(typical['analysis'])).toHaveLength(FIELD_LIMITS.analysis);
    expect(typical['beliefs']).toHaveLength(2);
    // Filled to the limit, less a space trimmed before the closing full stop.
    for (const read of typical['beliefs'] as { reason: string }[])
      expect(read.reason.length).toBeGreaterThanOrEqual(FIELD_LIMITS.reason - 1);
    expect(String(verbose['analysis'])).toHaveLength(FIELD_LIMITS.analysis);
    expect(verbose['beliefs']).toHaveLength(living);
    expect(interpret(request, verbose).ok).toBe(true);
  });

  it.each(PROVIDER_NAMES)(
    'GIVEN a night turn on %s WHEN a verbose model answers THEN it first reads the last day with read_transcript, the seat answers the call, then it decides',
    async (provider: ProviderName) => {
      const t = secondNight();
      const me = t.by('detective');
      const started = await startFakeProvider(provider, { script: playingModel({ level: 'verbose' }) });
      fake = started.fake;
      const voice = { name: me.name, phrases: [] };
      const brain = llmBrain({
        persona: plainPersona(voice),
        model: 'test-model',
        think: seatThinker({ provider: started.provider }),
        fallback: heuristicBrain(voice),
      });

      const decision = await brain(requestOf(t, me, 'night'), new Rng(1));

      expect(decision.fallback).toBeUndefined();
      expect(decision.toolCalls).toEqual([objectContaining({ name: 'read_transcript', input: '{"day":1}' })]);
      expect(fake.requests).toHaveLength(2);
      const [round] = fake.requests[1]!.toolResults;
      expect(round?.isError).not.toBe(true);
      const call = fake.requests[1]!.transcript.find((turn) => turn.role === 'assistant');
      // Anthropic's model writes a sentence before it calls a tool; OpenAI's tool calls come bare.
      expect(call?.text).toBe(provider === 'anthropic' ? 'Let me weigh what happened before I decide.' : '');
    },
  );

  it.each(PROVIDER_NAMES)(
    'GIVEN a night turn on %s’s default model WHEN a verbose model answers THEN its tool round and its answer are taken at once: no re-ask',
    async (provider: ProviderName) => {
      const t = secondNight();
      const me = t.by('detective');
      const started = await startFakeProvider(provider, { script: playingModel({ level: 'verbose' }) });
      fake = started.fake;
      const voice = { name: me.name, phrases: [] };
      const brain = llmBrain({
        persona: plainPersona(voice),
        model: DEFAULT_MODELS[provider],
        think: seatThinker({ provider: started.provider }),
        fallback: heuristicBrain(voice),
      });

      const decision = await brain(requestOf(t, me, 'night'), new Rng(1));

      expect(decision.fallback).toBeUndefined();
      expect(decision.toolCalls).toEqual([objectContaining({ name: 'read_transcript', input: '{"day":1}' })]);
      expect(fake.requests).toHaveLength(2);
    },
  );

  it(`GIVEN 2,000 votes told apart only by their seeds WHEN the model answers at the bench's illegal rate THEN ${ILLEGAL_ANSWER_RATE * 100} % (±1) name a player the task does not offer, which the rules refuse, and the same request always gets the same answer`, async () => {
    const t = firstVote();
    const request = requestOf(t, t.by('townsperson'), 'vote');
    const answer = playingModel({ illegalRate: ILLEGAL_ANSWER_RATE });
    const decide = async (seed: number) => {
      const reply = await answer(onTheWire(request, seed));
      return reply.kind === 'message' ? reply.structured : undefined;
    };

    const answers = await Promise.all(Array.from({ length: 2000 }, (_, seed) => decide(seed)));
    const refused = answers.filter((a) => !interpret(request, a).ok);

    expect(refused.length / answers.length).toBeGreaterThanOrEqual(ILLEGAL_ANSWER_RATE - 0.01);
    expect(refused.length / answers.length).toBeLessThanOrEqual(ILLEGAL_ANSWER_RATE + 0.01);
    for (const wrong of refused)
      expect(interpret(request, wrong)).toEqual({ ok: false, error: stringContaining('is not one of your options now') });
    expect(await decide(7)).toEqual(answers[7]);
  });
});
