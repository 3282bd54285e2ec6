import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import { TestGame } from '../support/test-game.ts';
import { decisionRequest } from '../support/decision-request.ts';

const brain = heuristicBrain({ name: 'Test', phrases: [] });
const NINE = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

const request = decisionRequest;

function trialDay() {
  const t = TestGame.started([...NINE], { dayStyle: 'trial', nightOneKill: false });
  t.advanceTo('day');
  return t;
}

describe('the offline brain in a trial day', () => {
  it('GIVEN a believed Detective claim naming a Mafia member WHEN a town seat speaks THEN it nominates them and says so', () => {
    const t = trialDay();
    const suspect = t.by('mafia', 0);
    t.must(t.say(t.by('detective'), `I'm the Detective. Night 1: ${suspect.name} is Mafia.`));
    const decision = brain(request(t, t.by('townsperson', 0).id, 'speak'), engine.createRng(1));
    expect(decision.targetId).toBe(suspect.id);
    expect(decision.speech).toMatch(new RegExp(`(nominate|trial)[^.]*${suspect.name}|${suspect.name}[^.]*(nominate|trial)`, 'i'));
  });

  it('GIVEN a town seat with no strong read WHEN it speaks on day 1 THEN it nominates nobody', () => {
    const t = trialDay();
    expect(brain(request(t, t.by('townsperson', 0).id, 'speak'), engine.createRng(1)).targetId).toBeNull();
  });

  it('GIVEN a pending nomination of a town player WHEN a Mafia seat speaks THEN it seconds it; GIVEN one of its teammate THEN it never seconds', () => {
    const t = trialDay();
    const town = t.by('townsperson', 1);
    t.must(t.nominate(t.by('townsperson', 0), town));
    expect(brain(request(t, t.by('mafia', 0).id, 'speak'), engine.createRng(2)).targetId).toBe(town.id);

    const u = trialDay();
    u.must(u.nominate(u.by('townsperson', 0), u.by('mafia', 1)));
    for (let seed = 0; seed < 20; seed++)
      expect(brain(request(u, u.by('mafia', 0).id, 'speak'), engine.createRng(seed)).targetId).not.toBe(u.by('mafia', 1).id);
  });

  it('GIVEN a town nominee on trial WHEN it defends THEN it claims its role and names its accusers; a Mafia nominee keeps a town cover', () => {
    const t = trialDay();
    const [doctor, mafia] = [t.by('doctor'), t.by('mafia', 0)];
    t.must(t.nominate(t.by('townsperson', 0), doctor));
    t.must(t.second(t.by('townsperson', 1), doctor));
    t.must(t.nominate(t.by('townsperson', 2), mafia));
    t.must(t.second(t.by('townsperson', 3), mafia));
    t.advance();
    const town = brain(request(t, doctor.id, 'defense'), engine.createRng(3));
    expect(town.speech).toContain('I am the Doctor.');
    expect(town.speech).toContain(t.by('townsperson', 0).name);
    t.must(engine.restDefense(t.state, { playerId: doctor.id, at: t.at + 1 }));
    const cover = brain(request(t, mafia.id, 'defense'), engine.createRng(3));
    expect(cover.speech).toMatch(/I am a Townsperson/);
    expect(cover.speech).not.toMatch(/Mafia\b.*\bme\b/);
  });

  it('GIVEN the vote of a trial day WHEN a seat votes THEN it votes for a nominee or no lynch', () => {
    const t = trialDay();
    const nominee = t.by('townsperson', 4);
    t.must(t.nominate(t.by('townsperson', 0), nominee));
    t.must(t.second(t.by('townsperson', 1), nominee));
    t.advanceTo('vote');
    for (const p of t.state.players.filter((p) => p.id !== nominee.id)) {
      const target = brain(request(t, p.id, 'vote'), engine.createRng(4)).targetId;
      expect([nominee.id, 'no_lynch']).toContain(target);
    }
  });
});

describe('AI seats play a trial day through the driver', () => {
  it('GIVEN 40 seeded all-AI trial games WHEN played to the end THEN seats nominate and second, every AI defendant defends and rests in its turn, votes go only to nominees, and no Mafia seat puts a teammate on trial', async () => {
    let nominations = 0;
    let defenses = 0;
    let lynches = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const played = await playHeadless({
        gameId: `trial-${seed}`,
        seed,
        seats: houseSeats(7),
        settings: { rules: { dayStyle: 'trial' } },
      });
      expect(played.ok).toBe(true);
      if (!played.ok) continue;
      const state = played.value;
      const role = (id: string) => engine.findPlayer(state, id)?.role ?? null;
      const standing = new Set<string>();
      let defendant: string | null = null;
      for (const e of state.log) {
        if (e.type === 'phase_started') {
          if (e.payload.phase === 'day') standing.clear();
          defendant = e.payload.defendantId ?? null;
          if (defendant) defenses++;
        } else if (e.type === 'nominated' || e.type === 'nomination_seconded') {
          const by = e.type === 'nominated' ? e.payload.nominatorId : e.payload.seconderId;
          if (e.type === 'nominated') nominations++;
          else standing.add(e.payload.targetId);
          expect(
            engine.isMafia(role(by)) && engine.isMafia(role(e.payload.targetId)),
            `seed ${seed}: Mafia ${by} put a teammate on trial`,
          ).toBe(false);
        } else if (e.type === 'speech' && defendant !== null && e.payload.channel === 'town') {
          expect(e.payload.playerId).toBe(defendant);
        } else if (e.type === 'defense_rested') {
          expect(e.payload.playerId).toBe(defendant);
        } else if (e.type === 'vote_cast' && e.payload.targetId !== 'no_lynch') {
          expect(standing.has(e.payload.targetId), `seed ${seed}: a vote for someone not on trial`).toBe(true);
        } else if (e.type === 'vote_resolved' && e.payload.lynchedId) lynches++;
      }
    }
    expect(nominations).toBeGreaterThan(40);
    expect(defenses).toBeGreaterThan(40);
    expect(lynches).toBeGreaterThan(20);
  });
});
