import { describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../../src/agents/decision.ts';
import { turnContext } from '../../../src/agents/player/prompt.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerState } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

function speakRequest(t: TestGame, me: PlayerState, sinceSeq: number): DecisionRequest {
  return { kind: 'speak', view: engine.viewFor(t.state, me.id)!, targets: [], allowSkip: false, beliefs: {}, sinceSeq };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the turn tells each thing once', () => {
  it('GIVEN a night kill WHEN a seat that last acted before it speaks the next day THEN the death is in today’s transcript and not told again as news', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('townsperson');
    const victim = t.by('townsperson', 1);
    const since = t.state.log.length;
    t.must(t.act(t.by('mafia'), victim));
    t.advanceTo('day');
    const prompt = turnContext(speakRequest(t, me, since));
    expect(prompt).toContain(`[death] ${victim.name} was killed by the Mafia`);
    expect(count(prompt.slice(prompt.indexOf('# Today so far')), victim.name)).toBe(1);
    expect(prompt).not.toContain('# Since your last turn');
  });

  it('GIVEN a lynch yesterday WHEN a seat that last acted before it is asked at night THEN the death is told under what changed since its last turn', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    const me = t.by('doctor');
    t.advanceTo('day');
    const since = t.state.log.length;
    const lynched = t.by('townsperson');
    t.advanceTo('vote');
    for (const p of t.state.players.filter((p) => p.alive && p.id !== lynched.id)) t.must(t.vote(p, lynched));
    t.advanceTo('night');
    const prompt = turnContext({ ...speakRequest(t, me, since), kind: 'night' });
    expect(prompt).toContain(`# Since your last turn\n- ${lynched.name} died (lynch, day 1)`);
  });

  it('GIVEN a seat with a will WHEN it is prompted THEN the will is not repeated: it is written from the facts and beliefs the prompt shows', () => {
    const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson']);
    t.advanceTo('day');
    const me = t.by('detective');
    t.must(engine.writeWill(t.state, { playerId: me.id, text: 'Detective. No results yet.', at: t.state.deadline! }));
    expect(turnContext(speakRequest(t, me, 0))).not.toContain('No results yet');
  });
});
