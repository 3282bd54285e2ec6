import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import * as engine from '../../../src/game/index.ts';
import { SKIP_VALUE } from '../../../src/discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import { personaName } from '../../../src/persona/persona.ts';
import { ok, type Result } from '../../../src/result.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { appended, fromNow, tidy } from './shared-world.ts';

/** One world for the file: each test's games are ended, and its personas deleted, after it. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const HUMANS = ['alice', 'bob', 'carol'] as const;

/** Everything the bot and the AI seats owe right now is done and delivered. */
async function settle(liveGame: LiveGame): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await w.bot.idle();
    await liveGame.driver?.idle();
  }
  await w.bot.idle();
}

/** alice hosts; bob and carol join; the AI personas fill the table; the game is started and night 1 has begun. */
async function startGame(
  ai: readonly string[] = ['Sherlock Holmes', 'Hercule Poirot'],
  options: Record<string, string | number | boolean> = {},
): Promise<LiveGame> {
  const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options }).public();
  const liveGame = w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel('game').id)!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
  for (const persona of ai) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
  await w.sim.until(() => liveGame.driver !== null);
  await settle(liveGame);
  return liveGame;
}

/** The clock jumps to the phase deadline; returns once the next phase has begun and its output is out. */
async function nextPhase(liveGame: LiveGame): Promise<void> {
  const { phase, day, deadline } = liveGame.state;
  w.timers.advanceTo(deadline!);
  await w.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 5000 });
  await settle(liveGame);
}

describe('AI personas in a running game', () => {
  it('GIVEN a persona with an avatar (and nobody killed on night 1) WHEN it speaks by day THEN its webhook message carries its name and avatar', async () => {
    const webhookMessages = fromNow(() => w.sim.webhookMessages());
    const alice = w.sim.user('alice');
    const actor = { userId: alice.id, guildId: w.sim.guild().id, canManageServer: true };
    const source = await w.personas.getByName(actor, 'Sherlock Holmes');
    if (!source.ok) throw new Error(source.error.message);
    const { profile, tags, notes, parts, traits, arc, card } = source.value;
    const avatarUrl = 'https://cdn.example.com/ada.png';
    const created = await w.personas.create(actor, {
      scope: { kind: 'server', guildId: w.sim.guild().id },
      content: {
        profile: { ...profile, identity: { ...profile.identity, name: 'Ada Lovelace' } },
        avatarUrl,
        tags,
        notes,
        parts,
        traits,
        arc,
        card,
      },
    });
    if (!created.ok) throw new Error(created.error.message);
    expect(personaName(created.value)).toBe('Ada Lovelace');

    const liveGame = await startGame(['Ada Lovelace', 'Hercule Poirot'], { 'night-one-kill': false });
    for (
      let i = 0;
      i < 6 && !webhookMessages().some((m) => m.displayName === 'Ada Lovelace' && m.channelId === w.sim.channel('game').id);
      i++
    ) {
      if (liveGame.state.phase === 'ended') break;
      await nextPhase(liveGame);
    }
    const ada = webhookMessages().filter((m) => m.displayName === 'Ada Lovelace');
    expect(ada.length).toBeGreaterThan(0);
    for (const m of ada) expect(m.avatarUrl).toBe(avatarUrl);
    for (const m of webhookMessages().filter((m) => m.displayName === 'Hercule Poirot')) expect(m.avatarUrl).toBeNull();
  });
});

const mafia = (user: string, subcommand: string, options: Record<string, string | number | boolean> = {}, where = 'game') =>
  w.sim.user(user).slash(where, 'mafia', { subcommand, options });

function seatOf(liveGame: LiveGame, name: string) {
  return liveGame.state.players.find((p) => p.name === name)!;
}

/** Every living player votes for `name` (a human who votes for someone else, last) in one command, so the vote closes on it at once. */
async function lynch(liveGame: LiveGame, name: string): Promise<void> {
  while (liveGame.state.phase !== 'vote') await nextPhase(liveGame);
  const doomed = seatOf(liveGame, name);
  const lynched = await liveGame.submit((state, at) => {
    let result: Result<engine.Change, engine.GameError> = ok({ state, events: [] });
    const events: engine.GameEvent[] = [];
    // The doomed (a human who has not voted) votes last, so the vote stays open until everyone else has turned on them.
    const living = state.players.filter((p) => p.alive);
    for (const p of [...living.filter((p) => p.id !== doomed.id), doomed]) {
      if (!result.ok || result.value.state.phase !== 'vote') break;
      const target = p.id === doomed.id ? state.players.find((o) => o.alive && o.id !== doomed.id)!.id : doomed.id;
      result = engine.vote(result.value.state, { voterId: p.id, targetId: target, at });
      if (result.ok) events.push(...result.value.events);
    }
    return result.ok ? ok({ state: result.value.state, events }) : result;
  });
  expect(lynched.ok ? seatOf(liveGame, name).alive : lynched.error.message).toBe(false);
  await settle(liveGame);
}

describe('/mafia will', () => {
  it('GIVEN a running game WHEN bob writes a will, then rewrites it in the form THEN only he is told, and when he is lynched the channel reads the latest will', async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const failed = appended(() => w.sim.failedRequests());
    const liveGame = await startGame(['Sherlock Holmes', 'Hercule Poirot'], { 'night-one-kill': false });
    const saved = await mafia('bob', 'will', { text: 'Trust nobody.' }).ephemeral();
    expect(messageText(saved)).toMatch(/Your will is saved/);
    expect(seatOf(liveGame, 'bob').will).toBe('Trust nobody.');

    const form = await mafia('bob', 'will').modal();
    const input = JSON.stringify(form.components);
    expect(input).toContain('Trust nobody.');
    expect(input).toContain(`"max_length":${engine.MAX_WILL_LENGTH}`);
    expect(
      messageText(
        await w.sim.user('bob').submitModal(`will:${liveGame.state.id}`, { text: 'Sherlock is the Mafia. Avenge me.' }).ephemeral(),
      ),
    ).toMatch(/saved/);
    expect(seatOf(liveGame, 'bob').will).toBe('Sherlock is the Mafia. Avenge me.');
    await settle(liveGame);
    expect(channel().some((m) => m.content.includes('Avenge me'))).toBe(false);

    await lynch(liveGame, 'bob');
    expect(seatOf(liveGame, 'bob').alive).toBe(false);
    const reading = channel().find((m) => m.content.includes('Their will reads'));
    expect(reading?.content).toContain('“Sherlock is the Mafia. Avenge me.”');
    expect(reading?.content).not.toContain('Trust nobody');
    expect(failed()).toEqual([]);
  });

  it('GIVEN no game, a lobby, a stranger, a dead player, a game without wills, or text over the limit WHEN /mafia will is used THEN each is refused privately and nothing changes', async () => {
    expect(messageText(await mafia('bob', 'will', { text: 'x' }).ephemeral())).toMatch(/no game in this channel/);
    expect(messageText(await mafia('bob', 'will', { text: 'x' }, 'dm').ephemeral())).toMatch(/server channel/);
    await mafia('alice', 'create', { 'last-wills': false }, 'other').public();
    // Seven seats, so one lynch does not end the game.
    const liveGame = await startGame(['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple', 'Oscar Wilde'], { 'night-one-kill': false });
    // The AI seats keep playing (and write wills) meanwhile, so "nothing changed" is: no human wrote a will.
    const wills = (t: LiveGame) =>
      t.state.log.filter((e) => e.type === 'will_written' && !e.payload.playerId.startsWith('ai-') && !e.payload.playerId.startsWith('x'))
        .length;
    expect(messageText(await mafia('mod', 'will', { text: 'I was here' }).ephemeral())).toMatch(/not playing in this game/);
    expect(() => mafia('bob', 'will', { text: 'x'.repeat(engine.MAX_WILL_LENGTH + 1) })).toThrow(/1000/);
    expect(wills(liveGame)).toBe(0);

    const other = w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel('other').id)!;
    expect(messageText(await mafia('alice', 'will', { text: 'mine' }, 'other').ephemeral())).toMatch(/not started yet/);
    for (const name of ['bob', 'carol'])
      await other.submit((s, at) =>
        engine.join(s, { player: { id: w.sim.user(name).id, name, kind: 'human', userId: w.sim.user(name).id }, at }),
      );
    for (const id of ['x1', 'x2'])
      await other.submit((s, at) => engine.join(s, { player: { id, name: id, kind: 'ai', personaId: null }, at }));
    expect(messageText(await mafia('alice', 'start', {}, 'other').public())).toBe('The game has started: everyone has their role by DM.');
    expect(messageText(await mafia('alice', 'will', { text: 'mine' }, 'other').ephemeral())).toMatch(/without last wills/);
    expect(wills(other)).toBe(0);

    await lynch(liveGame, 'bob');
    expect(messageText(await mafia('bob', 'will', { text: 'too late' }).ephemeral())).toMatch(/You are dead/);
    expect(() => w.sim.user('bob').submitModal(`will:${liveGame.state.id}`, { text: 'too late' })).toThrow(/no modal/);
    expect(wills(liveGame)).toBe(0);
    expect(seatOf(liveGame, 'bob').will).toBeNull();
  });
});

describe('reminders before a deadline', () => {
  // What this test's game posted and DMed (earlier tests' games in this world reminded too).
  let reminders: () => SimMessage[];
  let nightReminders: (name: string) => SimMessage[];
  beforeEach(() => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const dms = new Map<string, () => SimMessage[]>(HUMANS.map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    reminders = () => channel().filter((m) => m.content.startsWith('⏳'));
    nightReminders = (name) => dms.get(name)!().filter((m) => m.content.startsWith('⏳'));
  });

  it('GIVEN night 1 (90 s) WHEN 60 s are left THEN nothing; WHEN 15 s are left THEN only humans who have not acted get a DM with their menu, and the channel no line (it would only say that someone owes an action)', async () => {
    const failed = appended(() => w.sim.failedRequests());
    // Three of five roles act at night, so at least one of the three humans does: the night waits for them.
    const liveGame = await startGame(['Sherlock Holmes', 'Hercule Poirot'], { roles: 'mafia, doctor, detective, townsperson x2' });
    const deadline = liveGame.state.deadline!;
    expect(liveGame.state.phase).toBe('night');
    expect(deadline - w.timers.now()).toBe(90_000);
    const owing = HUMANS.filter((n) => engine.hasNightAction(liveGame.state, seatOf(liveGame, n)));
    expect(owing.length).toBeGreaterThan(0);
    // With two or more owing, the first chooses (one left owing keeps the night open); the others do not.
    const early = owing.length > 1 ? owing[0] : undefined;
    const late = owing.filter((n) => n !== early);
    if (early) {
      const menu = w.sim.dmsTo(early).findLast((m) => m.components.length > 0)!;
      await w.sim.user(early).select(menu, `night:${liveGame.state.id}`, [SKIP_VALUE]).ephemeral();
    }

    w.timers.advanceTo(deadline - 60_000);
    await settle(liveGame);
    expect(reminders()).toHaveLength(0);

    w.timers.advanceTo(deadline - 15_000);
    await settle(liveGame);
    expect(liveGame.state.phase).toBe('night');
    expect(reminders()).toEqual([]);
    for (const name of HUMANS) {
      const dms = nightReminders(name);
      expect(dms).toHaveLength(late.includes(name) ? 1 : 0);
      if (dms[0]) expect(JSON.stringify(dms[0].components)).toContain(`night:${liveGame.state.id}`);
    }
    expect(failed()).toEqual([]);
  });

  it('GIVEN the vote WHEN 15 s are left THEN the reminder names exactly the living who have not voted; the day (300 s) gets one, at 60 s (Discord counts its time down)', async () => {
    const liveGame = await startGame(['Sherlock Holmes', 'Hercule Poirot'], { 'night-one-kill': false });
    while (liveGame.state.phase !== 'day') await nextPhase(liveGame);
    const dayEnds = liveGame.state.deadline!;
    const before = reminders().length;
    w.timers.advanceTo(dayEnds - 60_000);
    await settle(liveGame);
    w.timers.advanceTo(dayEnds - 15_000);
    await settle(liveGame);
    expect(
      reminders()
        .slice(before)
        .map((m) => m.content),
    ).toEqual([`⏳ Day 1 ends <t:${Math.floor(dayEnds / 1000)}:R>; the vote follows.`]);

    await nextPhase(liveGame);
    expect(liveGame.state.phase).toBe('vote');
    await w.sim
      .user('alice')
      .select(
        w.sim.messagesIn('game').find((m) => m.id === liveGame.voteMessageId)!,
        `vote:${liveGame.state.id}`,
        [NO_LYNCH_VALUE],
      )
      .ephemeral();
    await settle(liveGame);
    w.timers.advanceTo(liveGame.state.deadline! - 15_000);
    await settle(liveGame);
    expect(liveGame.state.phase).toBe('vote'); // bob and carol have not voted
    const reminder = reminders().at(-1)!.content;
    expect(reminder).toMatch(/^⏳ The vote closes <t:\d+:R>\. Not voted yet: /);
    for (const p of liveGame.state.players.filter((p) => p.alive)) {
      if (p.id in liveGame.state.votes) expect(reminder).not.toContain(p.name);
      else expect(reminder).toContain(p.name);
    }
    expect(reminder).not.toContain('alice');
  });
});
