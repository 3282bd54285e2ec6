import { describe, expect, it } from 'vitest';
import { plainPersona } from '../../src/agents/player/persona-prompt.ts';
import { sharedPrefix, stablePrefix, turnContext } from '../../src/agents/player/prompt.ts';
import * as engine from '../../src/game/index.ts';
import type { PlayerState } from '../../src/game/index.ts';
import { missingFacts } from '../../scripts/lib/entitled-facts.ts';
import { TestGame } from '../support/test-game.ts';

/** Day 1: the Detective claims and names the Mafia, everyone but the Mafia votes out a townsperson; then day 2 opens after a kill. */
function twoDays(): { t: TestGame; lynched: PlayerState; killed: PlayerState } {
  const t = TestGame.started(['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson']);
  t.must(t.act(t.by('detective'), t.by('mafia')));
  t.advanceTo('day');
  t.must(t.say(t.by('detective'), `I'm the Detective and ${t.by('mafia').name} is mafia.`));
  t.must(t.say(t.by('mafia'), 'Lies.', 'town'));
  t.advanceTo('vote');
  const lynched = t.by('townsperson');
  for (const p of t.state.players.filter((p) => p.alive && p.id !== lynched.id)) t.must(t.vote(p, lynched));
  t.advanceTo('night');
  t.must(t.say(t.by('mafia'), 'The talker goes tonight.', 'mafia'));
  const killed = t.by('townsperson', 1);
  for (const m of t.state.players.filter((p) => engine.isMafia(p.role))) t.must(t.act(m, killed));
  t.advanceTo('day');
  return { t, lynched, killed };
}

function promptOf(t: TestGame, seat: PlayerState): { view: engine.PlayerView; text: string } {
  const view = engine.viewFor(t.state, seat.id)!;
  const turn = turnContext({ kind: 'speak', view, targets: [], allowSkip: false, beliefs: {} });
  return { view, text: [sharedPrefix(view), stablePrefix(view, plainPersona({ name: seat.name, phrases: [] })), turn].join('\n') };
}

describe('the audit of what a prompt tells its seat', () => {
  it('GIVEN day 2 after a claim, a lynch and a kill WHEN a Mafia seat’s prompt is audited THEN nothing it is entitled to is missing', () => {
    const { t } = twoDays();
    const prompt = promptOf(t, t.by('mafia', 1));
    expect(missingFacts(prompt.view, prompt.text)).toEqual([]);
  });

  it('GIVEN the same prompt with day 1’s lynch, one ballot and the claim cut out WHEN audited THEN each cut fact is named', () => {
    const { t, lynched } = twoDays();
    const prompt = promptOf(t, t.by('doctor'));
    const voter = t.by('detective').name;
    const cut = prompt.text
      .split('\n')
      .filter((line) => !line.startsWith(`[death] ${lynched.name}`) && !line.startsWith('[claims]'))
      .join('\n')
      .replace(`${voter} → ${lynched.name}, `, '');

    expect(missingFacts(prompt.view, cut)).toEqual([
      `day 1 claim by ${voter} of Detective`,
      `day 1 vote ${voter} → ${lynched.name}`,
      `death of ${lynched.name} (lynch, Townsperson) on day 1`,
    ]);
  });

  it('GIVEN a Mafia seat’s prompt without its team’s thread and kill history WHEN audited THEN each line cut is named', () => {
    const { t, killed } = twoDays();
    const prompt = promptOf(t, t.by('mafia', 1));
    const cut = prompt.text
      .split('\n')
      .filter((line) => !line.includes('The talker goes tonight.') && !line.includes('the Mafia targeted'))
      .join('\n');

    expect(missingFacts(prompt.view, cut)).toEqual([
      'night 1 Mafia kill decision on nobody',
      `Mafia thread line by ${t.by('mafia').name} on night 2`,
      `night 2 Mafia kill decision on ${killed.name}`,
    ]);
  });
});
