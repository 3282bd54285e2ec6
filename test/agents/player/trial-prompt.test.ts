import { describe, expect, it } from 'vitest';
import type { DecisionKind } from '../../../src/agents/decision.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { decisionJsonSchema } from '../../../src/agents/player/output-schema.ts';
import { sharedPrefix, turnContext } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerState } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';
import { decisionRequest } from '../../support/decision-request.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

const ask = (t: TestGame, me: PlayerState, kind: DecisionKind) => decisionRequest(t, me.id, kind);

const answer = (decision: string, speech: string) => ({
  observations: 'o',
  analysis: 'a',
  beliefs: [],
  strategy: 's',
  decision,
  speech,
  urgency: 1,
});

describe('what a seat is told in a trial day', () => {
  it('GIVEN a trial game WHEN any seat is prompted THEN the shared rules explain nominations, seconds, defenses and the vote among the accused, and the Mafia’s duty to teammates', () => {
    const t = TestGame.started([...SEVEN], { dayStyle: 'trial', maxNominees: 2, defenseSeconds: 60 });
    const shared = sharedPrefix(engine.viewFor(t.state, t.by('townsperson').id)!);
    expect(shared).toContain('a nomination stands once another player seconds it; at most 2 stand accused a day');
    expect(shared).toContain('60 seconds each');
    expect(shared).toContain('never nominate or second a teammate unless the plan you state');
    const open = TestGame.started([...SEVEN]);
    expect(sharedPrefix(engine.viewFor(open.state, open.by('townsperson').id)!)).not.toContain('nominat');
  });

  it('GIVEN a trial day WHEN a seat speaks THEN its task lets it nominate, lists whom, and its answer’s decision becomes the nomination; the schema is the game’s one schema', () => {
    const t = TestGame.started([...SEVEN], { dayStyle: 'trial', nightOneKill: false });
    t.advanceTo('day');
    const me = t.by('townsperson');
    const before = JSON.stringify(decisionJsonSchema(engine.viewFor(t.state, me.id)!));
    const request = ask(t, me, 'speak');
    const prompt = turnContext(request);
    expect(prompt).toContain('This is a trial day: in "decision" name one player to nominate for trial');
    expect(prompt).toContain(`Options for "decision": ${request.targets.map((o) => o.name).join(', ')}, (nobody).`);
    const mafia = t.by('mafia');
    const decided = interpret(request, answer(mafia.name, `I nominate ${mafia.name}.`));
    expect(decided.ok && decided.value.targetId).toBe(mafia.id);
    expect(interpret(request, answer('(nobody)', 'Nothing yet.')).ok).toBe(true);
    expect(interpret(request, answer(me.name, 'Me?')).ok).toBe(false);
    t.must(t.nominate(t.by('doctor'), mafia));
    expect(JSON.stringify(decisionJsonSchema(engine.viewFor(t.state, me.id)!))).toBe(before);
  });

  it('GIVEN a nominee WHEN it is asked for its defense THEN the prompt names its accusers, quotes what was said of it today and their votes so far, and the transcript shows the nominations', () => {
    const t = TestGame.started([...SEVEN], { dayStyle: 'trial', nightOneKill: false, lastWordsSeconds: 0 });
    t.advanceTo('day');
    const [me, a, b] = [t.by('townsperson', 0), t.by('detective'), t.by('doctor')];
    t.must(t.say(a, `${me.name} dodged every question.`));
    t.must(t.nominate(a, me));
    t.must(t.second(b, me));
    t.advance();
    expect(t.state.trial.defendant).toBe(me.id);
    const prompt = turnContext(ask(t, me, 'defense'));
    expect(prompt).toContain('# Your task: You stand accused: speak in your own defense.');
    expect(prompt).toContain(`You were nominated by ${a.name}, seconded by ${b.name}.`);
    expect(prompt).toContain('What was said of you today:');
    expect(prompt).toContain('dodged every question.');
    expect(prompt).toContain('Your accusers have cast no vote yet.');
    expect(prompt).toContain(`[nomination] ${a.name} nominates ${me.name} for trial.`);
    expect(prompt).toContain(`[nomination] ${b.name} seconds: ${me.name} stands accused.`);
    expect(prompt).toContain(`[defense] ${me.name} speaks in their defense.`);
  });
});
