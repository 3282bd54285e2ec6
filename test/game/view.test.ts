import { describe, expect, it } from 'vitest';
import { recordReasoning, viewFor } from '../../src/game/index.ts';
import { TestGame } from '../support/test-game.ts';

describe('viewFor: the single gate for information', () => {
  function night1() {
    const t = TestGame.started([
      'mafia',
      'godfather',
      'detective',
      'doctor',
      'townsperson',
      'townsperson',
      'townsperson',
      'townsperson',
      'townsperson',
    ]);
    t.must(t.act(t.by('detective'), t.by('mafia')));
    t.must(t.act(t.by('doctor'), t.by('townsperson')));
    t.must(t.act(t.by('mafia'), t.by('townsperson', 1)));
    t.must(t.act(t.by('godfather'), t.by('townsperson', 1)));
    t.must(t.say(t.by('mafia'), 'done', 'mafia'));
    t.must(recordReasoning(t.state, { playerId: t.by('mafia').id, decision: 'kill', text: 'secret plan', at: t.at }));
    return t;
  }

  it('GIVEN a Townsperson WHEN they look THEN they see their own role, public deaths with roles, and nothing private of others', () => {
    const t = night1();
    const me = t.by('townsperson', 2);
    const view = viewFor(t.state, me.id)!;
    expect(view.me.role).toBe('townsperson');
    expect(view.teammates).toEqual([]);
    expect(view.investigations).toEqual([]);
    const known = Object.fromEntries(view.seats.filter((s) => s.knownRole).map((s) => [s.id, s.knownRole]));
    expect(known).toEqual({ [me.id]: 'townsperson', [t.by('townsperson', 1).id]: 'townsperson' });
    for (const e of view.events)
      expect(e.visibility.kind === 'public' || (e.visibility.kind === 'player' && e.visibility.playerId === me.id)).toBe(true);
    expect(JSON.stringify(view)).not.toContain('secret plan');
  });

  it('GIVEN a Mafia member WHEN they look THEN they see their team, the Mafia thread and proposals, but no Detective result', () => {
    const t = night1();
    const view = viewFor(t.state, t.by('mafia').id)!;
    expect(view.teammates).toEqual([{ id: t.by('godfather').id, name: t.by('godfather').name, role: 'godfather' }]);
    expect(view.events.some((e) => e.type === 'mafia_proposal')).toBe(true);
    expect(view.events.some((e) => e.type === 'speech' && e.payload.channel === 'mafia')).toBe(true);
    expect(view.events.some((e) => e.type === 'investigation_result')).toBe(false);
    expect(view.events.some((e) => e.type === 'reasoning')).toBe(false);
  });

  it('GIVEN the Detective WHEN they look THEN they see their own result and no Mafia-team event', () => {
    const t = night1();
    const view = viewFor(t.state, t.by('detective').id)!;
    expect(view.investigations).toEqual([{ night: 1, targetId: t.by('mafia').id, result: 'mafia' }]);
    expect(view.events.some((e) => e.visibility.kind === 'team')).toBe(false);
    expect(view.seats.find((s) => s.id === t.by('mafia').id)!.knownRole).toBeNull();
  });

  it('GIVEN an unknown player id WHEN a view is asked for THEN there is none', () => {
    expect(viewFor(night1().state, 'nobody')).toBeNull();
  });

  it('GIVEN views kept per viewer as the log grows WHEN a later state, an earlier one and another log of the same events are viewed THEN each view is what its own log shows', () => {
    const t = night1();
    const me = t.by('townsperson', 2);
    const fresh = (state: typeof t.state) => JSON.stringify(viewFor(structuredClone(state), me.id));
    const before = t.state;
    expect(JSON.stringify(viewFor(before, me.id))).toBe(fresh(before));
    t.advanceTo('day');
    t.must(t.say(t.by('doctor'), 'Morning, all.'));
    expect(JSON.stringify(viewFor(t.state, me.id))).toBe(fresh(t.state));
    expect(JSON.stringify(viewFor(before, me.id))).toBe(fresh(before));
    // The same event objects with one made visible to this player: not the log read before.
    const planted = {
      ...t.state,
      log: t.state.log.map((e) =>
        e.type === 'investigation_result' ? { ...e, visibility: { kind: 'player' as const, playerId: me.id } } : e,
      ),
    };
    expect(viewFor(planted, me.id)!.investigations).toHaveLength(1);
    expect(viewFor(t.state, me.id)!.investigations).toEqual([]);
  });
});
