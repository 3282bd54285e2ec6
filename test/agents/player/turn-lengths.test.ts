import { describe, expect, it } from 'vitest';
import type { DecisionKind, DecisionRequest } from '../../../src/agents/decision.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import { FIELD_LIMITS } from '../../../src/agents/player/turn-lengths.ts';
import { turnContext } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerState } from '../../../src/game/index.ts';
import { playingAnswer } from '../../../scripts/fakes/llm/playing-answer.ts';
import { TestGame } from '../../support/test-game.ts';

function requestOf(t: TestGame, me: PlayerState, kind: DecisionKind): DecisionRequest {
  return {
    kind,
    view: engine.viewFor(t.state, me.id)!,
    targets: kind === 'vote' ? engine.legalVoteTargets(t.state, me.id).map((p) => ({ id: p.id, name: p.name })) : [],
    allowSkip: kind === 'vote',
    beliefs: {},
  };
}

/** A game at its first vote, in which `spoke` said something during the day. */
function atVote(spoke: 'townsperson' | 'nobody'): TestGame {
  const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
  t.advanceTo('day');
  if (spoke !== 'nobody') t.must(t.say(t.by(spoke), 'I have my eye on someone.'));
  t.advanceTo('vote');
  return t;
}

const long = 'word '.repeat(100);
const wordy = (decision: string) => ({ observations: long, analysis: long, beliefs: [], strategy: long, decision, speech: '', urgency: 0 });

describe('lengths per turn, told with the task', () => {
  it('GIVEN a seat that reasoned aloud today WHEN it votes THEN its task names shorter reasoning, the schema stays the one of every turn, and longer fields are cut to the task’s lengths', () => {
    const t = atVote('townsperson');
    const me = t.by('townsperson');
    const request = requestOf(t, me, 'vote');
    expect(turnContext(request)).toContain('Lengths this turn: observations ≤ 80, analysis ≤ 200, strategy ≤ 80 characters.');
    expect(JSON.stringify(decisionJsonSchema(request.view))).toBe(
      JSON.stringify(decisionJsonSchema(requestOf(t, t.by('mafia'), 'vote').view)),
    );
    const read = interpret(request, wordy('(no lynch)'));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [observations, analysis, strategy] = read.value.reasoning.split('\n');
    expect(observations!.length).toBeLessThanOrEqual('Observations: '.length + 80);
    expect(analysis!.length).toBeLessThanOrEqual('Analysis: '.length + 200);
    expect(strategy!.length).toBeLessThanOrEqual('Strategy: '.length + 80);
  });

  it('GIVEN a seat that has not spoken today WHEN it votes THEN it reasons at full length: no shorter lengths are named', () => {
    const t = atVote('nobody');
    const request = requestOf(t, t.by('townsperson'), 'vote');
    expect(turnContext(request)).not.toContain('Lengths this turn');
    const read = interpret(request, wordy('(no lynch)'));
    expect(read.ok && read.value.reasoning.split('\n')[1]!.length).toBe('Analysis: '.length + FIELD_LIMITS.analysis);
  });

  it('GIVEN a seat that spoke today WHEN it speaks again THEN it too weighs only what changed: the shorter lengths are named, its speech keeps its full length', () => {
    const t = atVote('townsperson');
    const prompt = turnContext(requestOf(t, t.by('townsperson'), 'speak'));
    expect(prompt).toContain('Lengths this turn: observations ≤ 80, analysis ≤ 200, strategy ≤ 80 characters.');
    expect(prompt).not.toMatch(/speech ≤/);
  });

  it('GIVEN the first night WHEN a seat acts THEN it has nothing to observe or read yet: short lengths and no reads are asked for; a later night asks for full ones', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const first = turnContext(requestOf(t, t.by('detective'), 'night'));
    expect(first).toContain('Lengths this turn: observations ≤ 40, analysis ≤ 160, strategy ≤ 80 characters.');
    expect(first).toContain('beliefs: leave it empty; the game has only just begun.');
    t.advanceTo('day');
    t.advanceTo('night');
    const second = turnContext(requestOf(t, t.by('detective'), 'night'));
    expect(second).not.toContain('Lengths this turn');
    expect(second).toContain('beliefs: only the players whose read changed this turn');
  });

  it('GIVEN a lynched seat WHEN it says its last words THEN it is asked for no reads and for shorter reasoning', () => {
    const t = atVote('townsperson');
    const prompt = turnContext(requestOf(t, t.by('townsperson'), 'last_words'));
    expect(prompt).toContain('beliefs: leave it empty; your reads end with you.');
    expect(prompt).toContain('Lengths this turn: observations ≤ 80');
  });

  it('GIVEN a task naming shorter lengths, or no reads WHEN the bench’s playing model answers THEN it fills the lengths the task names, as a real model would, and writes no reads when asked for none', () => {
    const t = atVote('townsperson');
    const request = requestOf(t, t.by('townsperson'), 'vote');
    const schema = decisionJsonSchema(request.view);
    const settled = playingAnswer(turnContext(request), schema, 0);
    expect(String(settled['analysis']).length).toBe(Math.round(200 * 0.7));
    expect(settled['beliefs']).toHaveLength(2);
    for (const read of settled['beliefs'] as { reason: string }[]) expect(read.reason).toHaveLength(Math.round(FIELD_LIMITS.reason * 0.7));
    const lastWords = playingAnswer(turnContext(requestOf(t, t.by('townsperson'), 'last_words')), schema, 0);
    expect(lastWords['beliefs']).toEqual([]);
    const full = playingAnswer(turnContext(requestOf(atVote('nobody'), t.by('townsperson'), 'vote')), schema, 0);
    expect(String(full['analysis']).length).toBe(Math.round(FIELD_LIMITS.analysis * 0.7));
  });
});
