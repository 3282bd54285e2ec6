import { describe, expect, it } from 'vitest';
import { investigationResultDms, investigationsField } from '../../../src/discord/presenters/investigation.ts';
import { roleCardMessage } from '../../../src/discord/presenters/role-card.ts';
import * as engine from '../../../src/game/index.ts';
import type { PlayerKind, PlayerState, RoleId } from '../../../src/game/index.ts';
import { TestGame } from '../../support/test-game.ts';

const FIVE: RoleId[] = ['mafia', 'detective', 'doctor', 'townsperson', 'townsperson'];
const WITH_GODFATHER: RoleId[] = ['godfather', 'detective', 'doctor', 'townsperson', 'townsperson'];

/** A started game of people (each with a Discord id) and, where `ai` says, AI seats; named by seat. */
function table(roles: RoleId[], ai: readonly number[] = []): TestGame {
  const players = roles.map((_, i) => {
    const kind: PlayerKind = ai.includes(i) ? 'ai' : 'human';
    return { name: ['Ann', 'Ben', 'Cleo', 'Dan', 'Eve'][i]!, kind, userId: kind === 'human' ? `u${i + 1}` : null };
  });
  return TestGame.seated(players, roles);
}

/** The Detective investigates `target` on night 1; the DMs the dawn's events give. */
function investigate(t: TestGame, target: PlayerState) {
  t.must(t.act(t.by('detective'), target));
  return investigationResultDms(t.advance(), t.state);
}

describe('the Detective’s result', () => {
  it('GIVEN a human Detective WHEN they investigate the Mafia THEN at dawn they alone get "is Mafia" by DM, pinging nobody', () => {
    const t = table(FIVE);
    const dms = investigate(t, t.by('mafia'));
    expect(dms).toEqual([
      {
        to: { userId: t.by('detective').userId, name: t.by('detective').name },
        message: { content: `🔎 Your investigation (night 1): **${t.by('mafia').name}** is Mafia.`, allowedMentions: { parse: [] } },
      },
    ]);
  });

  it('GIVEN no Godfather in the role list WHEN a Townsperson is investigated THEN the DM says plainly "is not Mafia"', () => {
    const t = table(FIVE);
    expect(investigate(t, t.by('townsperson')).map((d) => d.message.content)).toEqual([
      `🔎 Your investigation (night 1): **${t.by('townsperson').name}** is not Mafia.`,
    ]);
  });

  it('GIVEN a Godfather in the role list WHEN the Godfather or a Townsperson is investigated THEN both read the same, and the DM says the Godfather reads as innocent (no more than the engine tells)', () => {
    const godfather = table(WITH_GODFATHER);
    const townsperson = table(WITH_GODFATHER);
    const said = (t: TestGame, target: PlayerState) => investigate(t, target)[0]!.message.content!.replace(target.name, 'X');
    const ofGodfather = said(godfather, godfather.by('godfather'));
    expect(ofGodfather).toBe('🔎 Your investigation (night 1): **X** is not Mafia, unless they are the Godfather (who reads as innocent).');
    expect(said(townsperson, townsperson.by('townsperson'))).toBe(ofGodfather);
  });

  it('GIVEN an AI Detective WHEN its result comes THEN no DM is made (it reads its view)', () => {
    const probe = table(FIVE);
    const detectiveSeat = probe.state.players.findIndex((p) => p.role === 'detective');
    const t = table(FIVE, [detectiveSeat]);
    expect(t.by('detective').kind).toBe('ai');
    expect(investigate(t, t.by('mafia'))).toEqual([]);
  });

  it('GIVEN results on two nights WHEN the Detective’s own card is made (/mafia status) THEN it lists both, in order; no one else’s card has the field', () => {
    const t = table(FIVE);
    investigate(t, t.by('mafia'));
    t.advanceTo('night');
    investigate(t, t.by('doctor'));
    const view = engine.viewFor(t.state, t.by('detective').id)!;
    expect(investigationsField(view)).toEqual({
      name: 'Your investigations',
      value: `Night 1: **${t.by('mafia').name}** is Mafia\nNight 2: **${t.by('doctor').name}** is not Mafia`,
    });
    const fields = (roleCardMessage(view, 'game').embeds![0] as { toJSON(): { fields?: { name: string }[] } }).toJSON().fields ?? [];
    expect(fields.map((f) => f.name)).toContain('Your investigations');
    expect(investigationsField(engine.viewFor(t.state, t.by('doctor').id)!)).toBeNull();
  });

  it('GIVEN a Godfather in play WHEN the card lists results THEN it says once what "not Mafia" may hide', () => {
    const t = table(WITH_GODFATHER);
    investigate(t, t.by('godfather'));
    const view = engine.viewFor(t.state, t.by('detective').id)!;
    expect(investigationsField(view)?.value).toBe(
      `Night 1: **${t.by('godfather').name}** is not Mafia\n(Each "not Mafia" may be the Godfather, who reads as innocent.)`,
    );
  });

  it('GIVEN more results than Discord’s 1,024 characters hold WHEN the card lists them THEN the newest that fit are kept', () => {
    const t = table(FIVE);
    investigate(t, t.by('mafia'));
    const view = engine.viewFor(t.state, t.by('detective').id)!;
    const long = 'L'.repeat(60);
    const many = {
      ...view,
      seats: [...view.seats, { id: 'far', name: long, seat: 99, kind: 'human' as const, alive: true, knownRole: null }],
      investigations: Array.from({ length: 30 }, (_, i) => ({ night: i + 1, targetId: 'far', result: 'innocent' as const })),
    };
    const value = investigationsField(many)!.value;
    expect(value.length).toBeLessThanOrEqual(1024);
    expect(value.split('\n').at(-1)).toBe(`Night 30: **${long}** is not Mafia`);
  });
});
