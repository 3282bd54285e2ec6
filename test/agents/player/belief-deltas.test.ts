import { describe, expect, it } from 'vitest';
import type { Beliefs } from '../../../src/agents/beliefs.ts';
import type { DecisionKind, DecisionRequest } from '../../../src/agents/decision.ts';
import { interpret } from '../../../src/agents/player/interpret.ts';
import { NO_READ } from '../../../src/agents/player/prior-beliefs.ts';
import { turnContext } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerState, RoleId } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

const ROLES: RoleId[] = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'];

function requestOf(t: TestGame, me: PlayerState, kind: DecisionKind, beliefs: Beliefs = {}): DecisionRequest {
  const targets =
    kind === 'vote' ? engine.legalVoteTargets(t.state, me.id) : kind === 'night' ? engine.legalNightTargets(t.state, me.id) : [];
  return {
    kind,
    view: engine.viewFor(t.state, me.id)!,
    targets: targets.map((p) => ({ id: p.id, name: p.name })),
    allowSkip: true,
    beliefs,
  };
}

const answer = (decision: string, beliefs: { player: string; suspicion: number; reason: string }[]) => ({
  observations: 'x',
  analysis: 'y',
  beliefs: beliefs.map((b) => ({ ...b, trust: 0.5 })),
  strategy: 'z',
  decision,
  speech: '',
  urgency: 1,
});

const livingOthers = (t: TestGame, me: PlayerState) => t.state.players.filter((p) => p.alive && p.id !== me.id).map((p) => p.id);

describe('beliefs written as changes over a complete map', () => {
  it('GIVEN a townsperson’s first turn WHEN the model reads only one player THEN its map still covers every other living player, the rest at the odds of the Mafia among them', () => {
    const t = TestGame.started(ROLES);
    const me = t.by('townsperson');
    const suspect = t.by('mafia');
    const read = interpret(requestOf(t, me, 'night'), answer('(nobody)', [{ player: suspect.name, suspicion: 0.8, reason: 'too quiet' }]));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(Object.keys(read.value.beliefs).sort()).toEqual(livingOthers(t, me).sort());
    expect(read.value.beliefs[suspect.id]).toEqual({ suspicion: 0.8, trust: 0.5, reason: 'too quiet' });
    // Two Mafia hidden among six players this seat cannot place.
    expect(read.value.beliefs[t.by('doctor').id]).toEqual({ suspicion: 0.33, trust: 0.5, reason: NO_READ });
  });

  it('GIVEN a Mafia seat and a Detective with a result WHEN they write no reads THEN what they know stands in: a teammate and a result at certainty, the rest at what the seat can tell', () => {
    const t = TestGame.started(ROLES);
    const mafia = t.by('mafia');
    const partner = t.by('mafia', 1);
    const asMafia = interpret(requestOf(t, mafia, 'vote'), answer('(no lynch)', []));
    expect(asMafia.ok && asMafia.value.beliefs[partner.id]).toMatchObject({ suspicion: 1, reason: 'known Mafia' });
    // The Mafia know their team, so nobody else is Mafia to them.
    expect(asMafia.ok && asMafia.value.beliefs[t.by('doctor').id]).toMatchObject({ suspicion: 0, reason: NO_READ });

    const detective = t.by('detective');
    t.must(t.act(detective, mafia));
    t.advanceTo('day');
    const asDetective = interpret(requestOf(t, detective, 'vote'), answer('(no lynch)', []));
    expect(asDetective.ok && asDetective.value.beliefs[mafia.id]).toMatchObject({ suspicion: 1, reason: 'my investigation: mafia' });
  });

  it('GIVEN reads from earlier turns WHEN the model writes only the one that changed THEN that one is replaced and the others are kept as they were', () => {
    const t = TestGame.started(ROLES);
    const me = t.by('townsperson');
    const [a, b] = [t.by('townsperson', 1), t.by('doctor')];
    const earlier: Beliefs = {
      [a.id]: { suspicion: 0.2, trust: 0.7, reason: 'voted with me' },
      [b.id]: { suspicion: 0.6, trust: 0.4, reason: 'dodged a question' },
    };
    const read = interpret(
      requestOf(t, me, 'night', earlier),
      answer('(nobody)', [{ player: b.name, suspicion: 0.9, reason: 'lied about a vote' }]),
    );
    expect(read.ok && read.value.beliefs[a.id]).toEqual(earlier[a.id]);
    expect(read.ok && read.value.beliefs[b.id]).toEqual({ suspicion: 0.9, trust: 0.5, reason: 'lied about a vote' });
  });

  it('GIVEN a seat with one read WHEN it is prompted THEN its beliefs show that read and one line for the players it has no read on, and it is asked only for reads that changed', () => {
    const t = TestGame.started(ROLES);
    t.advanceTo('day');
    const me = t.by('townsperson');
    const suspect = t.by('detective');
    const prompt = turnContext(requestOf(t, me, 'speak', { [suspect.id]: { suspicion: 0.7, trust: 0.3, reason: 'pushy' } }));
    const section = prompt.slice(prompt.indexOf('# Your beliefs so far'), prompt.indexOf('# Now'));
    const others = t.state.players.filter((p) => p.id !== me.id && p.id !== suspect.id).map((p) => p.name);
    expect(section.trim().split('\n')).toEqual([
      '# Your beliefs so far',
      `- ${suspect.name}: suspicion 0.70, trust 0.30 — pushy`,
      `- No read yet (suspicion 0.33, trust 0.50): ${others.join(', ')}`,
    ]);
    expect(prompt).toContain('beliefs: only the players whose read changed this turn; the others keep the reads above.');
  });
});
