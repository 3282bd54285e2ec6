import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { DecisionRequest } from '../../src/agents/decision.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { readRecord } from '../../src/agents/heuristic/reading.ts';
import { TestGame } from '../support/test-game.ts';
import { decisionRequest } from '../support/decision-request.ts';

const brain = heuristicBrain({ name: 'Test', phrases: ['Elementary.'] });

const request = decisionRequest;

const NINE = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

describe('the offline brain', () => {
  it('GIVEN the Detective found Mafia WHEN it speaks by day THEN it claims Detective, names the Mafia, and votes them', () => {
    const t = TestGame.started([...NINE]);
    const detective = t.by('detective');
    const mafia = t.by('mafia', 1);
    t.must(t.act(detective, mafia));
    t.advanceTo('day');
    const speech = brain(request(t, detective.id, 'speak'), engine.createRng(1));
    expect(speech.speech).toContain("I'm the Detective.");
    expect(speech.speech).toContain(`${mafia.name} is Mafia`);
    expect(speech.urgency).toBe(4);
    t.must(t.say(detective, speech.speech!));
    t.advanceTo('vote');
    expect(brain(request(t, detective.id, 'vote'), engine.createRng(1)).targetId).toBe(mafia.id);
  });

  it('GIVEN a believed Detective claim WHEN a Townsperson speaks and votes THEN it backs the claim', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const mafia = t.by('mafia', 0);
    t.must(t.say(t.by('detective'), `I'm the Detective. Night 1: ${mafia.name} is Mafia.`));
    const town = t.by('townsperson', 2);
    const speech = brain(request(t, town.id, 'speak'), engine.createRng(3));
    expect(speech.speech).toContain(mafia.name);
    t.advanceTo('vote');
    expect(brain(request(t, town.id, 'vote'), engine.createRng(3)).targetId).toBe(mafia.id);
  });

  it('GIVEN a Detective claim WHEN the Doctor protects at night THEN it protects the claimed Detective', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    t.must(t.say(t.by('detective'), `I'm the Detective. Night 1: ${t.by('townsperson').name} is innocent.`));
    t.advanceTo('night');
    expect(brain(request(t, t.by('doctor').id, 'night'), engine.createRng(9)).targetId).toBe(t.by('detective').id);
  });

  it('GIVEN any seed WHEN a Mafia member votes or kills THEN it never picks a teammate', () => {
    for (let seed = 0; seed < 50; seed++) {
      const t = TestGame.started([...NINE], {}, seed);
      const [a, b] = [t.by('mafia', 0), t.by('mafia', 1)];
      expect(brain(request(t, a.id, 'night'), engine.createRng(seed)).targetId).not.toBe(b.id);
      t.advanceTo('vote');
      expect(brain(request(t, a.id, 'vote'), engine.createRng(seed)).targetId).not.toBe(b.id);
    }
  });

  it('GIVEN a Townsperson lynched and revealed WHEN a Mafia member and a Townsperson read the table THEN the Mafia member trusts its teammate fully and the revealed Townsperson not at all, and the Townsperson trusts them', () => {
    const t = TestGame.started([...NINE]);
    const [mafia, teammate] = [t.by('mafia', 0), t.by('mafia', 1)];
    const lynched = t.by('townsperson', 0);
    t.advanceTo('vote');
    for (const p of t.state.players.filter((p) => p.alive && p.id !== lynched.id)) t.must(t.vote(p, lynched));
    t.advanceTo('night');

    const mafiaReads = brain(request(t, mafia.id, 'night'), engine.createRng(2)).beliefs;
    const townReads = brain(request(t, t.by('townsperson', 1).id, 'speak'), engine.createRng(2)).beliefs;

    expect(mafiaReads[teammate.id]).toMatchObject({ suspicion: 1, trust: 1 });
    expect(mafiaReads[lynched.id]).toMatchObject({ suspicion: 0, trust: 0 });
    expect(townReads[lynched.id]).toMatchObject({ suspicion: 0, trust: 1 });
  });

  it('GIVEN the same request and seed WHEN decided twice THEN the decisions are identical', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('vote');
    const req = request(t, t.by('townsperson').id, 'vote');
    expect(brain(req, engine.createRng(5))).toEqual(brain(req, engine.createRng(5)));
  });

  it('GIVEN a broken view WHEN asked to decide THEN it does not throw and returns a legal default', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('vote');
    const req = request(t, t.by('townsperson').id, 'vote');
    const broken = { ...req, view: { ...req.view, seats: null } } as unknown as DecisionRequest;
    const decision = brain(broken, engine.createRng(1));
    expect(decision.targetId).toBe('no_lynch');
    expect(decision.reasoning).toMatch(/^Fallback/);
  });

  it('GIVEN a speech that names a role claim in a human’s words WHEN read THEN the claim is understood', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const mafia = t.by('mafia', 0);
    t.must(t.say(t.by('detective'), `ok listen, I am the detective and ${mafia.name.toLowerCase()} came back mafia`));
    t.advanceTo('vote');
    expect(brain(request(t, t.by('townsperson', 1).id, 'vote'), engine.createRng(2)).targetId).toBe(mafia.id);
  });
});

describe('what the offline brain reads of withdrawn words', () => {
  it('GIVEN a role claim the brain has read WHEN its author edits it to another role, then deletes it THEN the brain reads the new claim, then none', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const author = t.by('townsperson');
    const reader = t.by('townsperson', 1);
    const claims = () => readRecord(engine.viewFor(t.state, reader.id)!).claims.get(author.id) ?? null;
    t.must(engine.speak(t.state, { playerId: author.id, channel: 'town', text: "I'm the Detective.", ref: 'm1', at: t.at }));
    t.must(t.say(t.by('doctor'), 'Interesting.'));
    expect(claims()).toBe('detective');
    t.must(engine.editSpeech(t.state, { ref: 'm1', text: "I'm the Doctor.", at: t.at }));
    expect(claims()).toBe('doctor');
    t.must(t.say(t.by('doctor'), 'Even more interesting.'));
    t.must(engine.deleteSpeeches(t.state, { refs: ['m1'], at: t.at }));
    t.must(t.say(t.by('doctor'), 'Hm.'));
    expect(claims()).toBeNull();
  });
});
