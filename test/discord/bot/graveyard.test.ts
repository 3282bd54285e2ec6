/**
 * The graveyard thread: the dead (and spectators, where the host allows them) talk there and read
 * each AI seat's reasoning, posted as one digest at the end of each phase (or a minute after it was
 * made, in a long phase); the living are never added and cannot read it.
 * Real discord.js against the simulator, whose private threads are read by members only (and by
 * those who may manage threads: alice owns the server, so the privacy checks read as carol and bob).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { graveyardThreadName, reasoningLine } from '../../../src/discord/presenters/graveyard.ts';
import { isEphemeral, messageText, Permissions, SimUserError } from '../../../scripts/fakes/discord/index.ts';
import type { SimChannel } from '../../../scripts/fakes/discord/model.ts';
import { startWorld, type World } from './harness.ts';
import { nightMenu, openGame, seated, seedWhere, settle, toNextPhase } from './playing.ts';
import { afterTest, tidy } from './shared-world.ts';

/** One Mafia, and no Doctor to save her victim: carol's kill is the night's death. */
const ROLES = 'mafia, detective, townsperson x5';
const SEED = seedWhere((r) => r.carol === 'mafia', 1, ROLES);

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterAll(() => w.close());
afterEach(() => tidy(w));

/** The game's graveyard thread in the simulator, if it was made. */
function graveyardOf(liveGame: LiveGame, channel = 'game'): SimChannel | undefined {
  return w.sim.threadsOf(channel).find((t) => t.name === graveyardThreadName(liveGame.state.id));
}

/** carol (the Mafia) kills `victim` on night one, and the night plays out until they are dead. */
async function carolKills(liveGame: LiveGame, victim: string): Promise<void> {
  const menu = nightMenu(w, 'carol', liveGame.state.id)!;
  const target = seated(liveGame.state, victim).id;
  expect(messageText(await w.sim.user('carol').select(menu, `night:${liveGame.state.id}`, [target]).ephemeral())).toMatch(/^Noted/);
  for (let step = 0; step < 4 && seated(liveGame.state, victim).alive; step++) await toNextPhase(w, liveGame);
  expect(seated(liveGame.state, victim).alive).toBe(false);
  await settle(w, liveGame);
}

/** Everything the thread holds, as one text. */
function threadText(thread: SimChannel): string {
  return w.sim
    .messagesIn(thread.id)
    .map((m) => m.content)
    .join('\n');
}

describe('the graveyard thread', () => {
  it('GIVEN a running game WHEN carol kills bob THEN bob is in a private graveyard that carol cannot read nor invite to, and the AI seats’ reasoning is posted there phase by phase', async () => {
    const liveGame = await openGame(w, { roles: ROLES });
    expect(graveyardOf(liveGame)).toBeUndefined();

    await carolKills(liveGame, 'bob');

    const thread = graveyardOf(liveGame)!;
    expect(thread).toBeDefined();
    const members = w.sim.threadMembers(thread.id);
    expect(members).toContain(w.sim.user('bob').id);
    expect(members).not.toContain(w.sim.user('carol').id);
    expect(members).not.toContain(w.sim.user('alice').id);
    expect(w.sim.user('bob').can(thread.id, Permissions.ViewChannel)).toBe(true);
    expect(w.sim.user('carol').can(thread.id, Permissions.ViewChannel)).toBe(false);
    expect(w.sim.user('carol').sees(thread.id)).toEqual([]);
    expect(() => w.sim.user('carol').say(thread.id, 'let me in')).toThrow(SimUserError);
    // A member cannot bring a living player in: the thread is not invitable.
    expect(() => w.sim.user('bob').invite(thread.id, w.sim.user('carol'))).toThrow(/only moderators/);

    // The dead talk freely there, and it is no move of the game.
    const before = liveGame.state.log.length;
    w.sim.user('bob').say(thread.id, 'carol did it, I am sure');
    await settle(w, liveGame);
    expect(
      liveGame.state.log.slice(before).some((e) => e.type === 'speech' && e.payload.playerId === seated(liveGame.state, 'bob').id),
    ).toBe(false);

    // The day's speeches are reasoned at its start: they wait for the day's end (or a minute), then go out together.
    const opened = liveGame.state.log.length;
    await toNextPhase(w, liveGame);
    const reasoning = () => liveGame.state.log.flatMap((e) => (e.type === 'reasoning' ? [e] : []));
    const dayReasoning = reasoning().filter((e) => e.seq > opened);
    expect(dayReasoning.length).toBeGreaterThan(1);
    const sent = () => w.sim.requests('POST', new RegExp(`/channels/${thread.id}/messages$`));
    const beforeDigest = sent().length;
    expect(threadText(thread)).not.toContain(reasoningLine(liveGame.state, dayReasoning[0]!.payload));
    await toNextPhase(w, liveGame);
    const text = threadText(thread);
    const dayEnded = liveGame.state.log.findLast((e) => e.type === 'phase_started')!.seq;
    for (const e of reasoning().filter((r) => r.seq < dayEnded)) expect(text).toContain(reasoningLine(liveGame.state, e.payload));
    expect(sent().length).toBe(beforeDigest + 1);
    const sends = sent();
    for (const sent of sends) {
      expect(sent.body).toMatchObject({ allowed_mentions: { parse: [] } });
    }
    expect(w.sim.user('carol').sees(thread.id)).toEqual([]);
  });

  it('GIVEN spectators off WHEN mod asks to spectate THEN refused privately and nothing changes; GIVEN them on THEN the lobby and the rules say so, and mod watches from the graveyard', async () => {
    const closed = await openGame(w, { roles: ROLES });
    const logged = closed.state.log.length;
    const refused = await w.sim.user('mod').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
    expect(isEphemeral(refused)).toBe(true);
    expect(messageText(refused)).toMatch(/did not allow spectators/);
    expect(graveyardOf(closed)).toBeUndefined();
    expect(closed.state.log.length).toBe(logged);
    await tidy(w);

    const lobby = await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'create', options: { spectators: true } })
      .public();
    expect(JSON.stringify(lobby.embeds)).toContain('The dead, and spectators');
    const early = await w.sim.user('mod').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
    expect(messageText(early)).toMatch(/has not started yet/);
    const rules = await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'rules' }).reply();
    expect(JSON.stringify(rules.embeds)).toMatch(/Spectators in the graveyard thread.*\*\*on\*\*/);
    await tidy(w);

    const liveGame = await openGame(w, { roles: ROLES, spectators: true });
    const joined = await w.sim.user('mod').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
    const thread = graveyardOf(liveGame)!;
    expect(messageText(joined)).toContain(`<#${thread.id}>`);
    expect(w.sim.threadMembers(thread.id)).toContain(w.sim.user('mod').id);
    expect(
      w.sim
        .user('mod')
        .sees(thread.id)
        .map((m) => m.content)[0],
    ).toMatch(/The dead and spectators talk here/);
    // Nobody is dead yet: no player is in it.
    for (const name of ['alice', 'bob', 'carol']) expect(w.sim.threadMembers(thread.id)).not.toContain(w.sim.user(name).id);
    // A living player of this game is refused, and stays out.
    const living = await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
    expect(messageText(living)).toMatch(/You are playing in this game/);
    expect(w.sim.threadMembers(thread.id)).not.toContain(w.sim.user('bob').id);
    expect(w.sim.user('bob').sees(thread.id)).toEqual([]);
  });

  it('GIVEN bob dead in the game of #game and alive in the game of #other WHEN both have a graveyard THEN he is in the first only, cannot read the second, and is refused as its spectator', async () => {
    const a = await openGame(w, { roles: ROLES });
    await carolKills(a, 'bob');
    const b = await openGame(w, { roles: ROLES, spectators: true }, 'other');
    expect(seated(b.state, 'bob').alive).toBe(true);
    await w.sim.user('mod').slash('other', 'mafia', { subcommand: 'spectate' }).ephemeral();

    const graveA = graveyardOf(a)!;
    const graveB = graveyardOf(b, 'other')!;
    expect(w.sim.threadMembers(graveA.id)).toContain(w.sim.user('bob').id);
    expect(w.sim.threadMembers(graveB.id)).not.toContain(w.sim.user('bob').id);
    expect(w.sim.user('bob').sees(graveB.id)).toEqual([]);
    expect(w.sim.user('bob').can(graveB.id, Permissions.ViewChannel)).toBe(false);
    const refused = await w.sim.user('bob').slash('other', 'mafia', { subcommand: 'spectate' }).ephemeral();
    expect(messageText(refused)).toMatch(/You are playing in this game/);
    expect(w.sim.threadMembers(graveB.id)).not.toContain(w.sim.user('bob').id);
    // In the game where he is dead, he may always come back to its graveyard (spectators or not).
    const back = await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
    expect(messageText(back)).toContain(`<#${graveA.id}>`);
  });

  it('GIVEN bob in the graveyard WHEN Discord refuses one graveyard message THEN the later ones still go out, the host hears it once, and the game goes on', async () => {
    const liveGame = await openGame(w, { roles: ROLES });
    await carolKills(liveGame, 'bob');
    const thread = graveyardOf(liveGame)!;
    afterTest(w, w.sim.fail({ method: 'POST', route: new RegExp(`/channels/${thread.id}/messages$`), status: 403, code: 50013, times: 1 }));
    const posted = w.sim.messagesIn(thread.id).length;
    const refusedBefore = w.sim.failedRequests().length;
    const before = `${liveGame.state.phase} ${liveGame.state.day}`;

    await toNextPhase(w, liveGame);
    await toNextPhase(w, liveGame);
    await toNextPhase(w, liveGame);

    expect(`${liveGame.state.phase} ${liveGame.state.day}`).not.toBe(before);
    expect(
      w.sim
        .failedRequests()
        .slice(refusedBefore)
        .filter((r) => r.path.includes(thread.id)),
    ).toHaveLength(1);
    expect(w.sim.messagesIn(thread.id).length).toBeGreaterThan(posted);
    expect(w.sim.messagesIn('game').filter((m) => m.content.includes('could not keep the graveyard thread'))).toHaveLength(1);
  });

  it('GIVEN a game with its graveyard open WHEN the bot restarts THEN it finds the thread again by name and goes on posting there', async () => {
    const liveGame = await openGame(w, { roles: ROLES });
    await carolKills(liveGame, 'bob');
    const thread = graveyardOf(liveGame)!;
    const gameId = liveGame.state.id;

    await w.restart();
    const again = (await w.bot.liveGames.inChannel(w.sim.channel('game').id))!;
    expect(w.bot.liveGames.output.graveyard.threadOf(gameId)).toBe(thread.id);
    const posted = w.sim.messagesIn(thread.id).length;
    await toNextPhase(w, again);
    await toNextPhase(w, again);
    expect(w.sim.messagesIn(thread.id).length).toBeGreaterThan(posted);
    expect(w.sim.threadsOf('game').filter((t) => t.name === graveyardThreadName(gameId))).toHaveLength(1);
  });
});

describe('a channel that refuses private threads', () => {
  it('GIVEN the bot may not make private threads WHEN a player dies and someone asks to spectate THEN the host is told once what is missing, the spectator hears why, and the game goes on', async () => {
    const lacking = await startWorld({ seed: SEED, botLacks: Permissions.CreatePrivateThreads });
    try {
      const lobby = await lacking.sim
        .user('alice')
        .slash('game', 'mafia', { subcommand: 'create', options: { roles: ROLES, spectators: true } })
        .public();
      const liveGame = lacking.bot.liveGames.live[0]!;
      for (const name of ['bob', 'carol']) await lacking.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
      for (const persona of ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple', 'Oscar Wilde']) {
        await lacking.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
      }
      await lacking.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
      await lacking.sim.until(() => liveGame.driver !== null);
      await settle(lacking, liveGame);

      // carol's kill, by DM (no Mafia thread either).
      const menu = nightMenu(lacking, 'carol', liveGame.state.id)!;
      await lacking.sim
        .user('carol')
        .select(menu, `night:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id])
        .ephemeral();
      for (let step = 0; step < 4 && seated(liveGame.state, 'bob').alive; step++) await toNextPhase(lacking, liveGame);
      expect(seated(liveGame.state, 'bob').alive).toBe(false);
      await settle(lacking, liveGame);

      const refused = await lacking.sim.user('mod').slash('game', 'mafia', { subcommand: 'spectate' }).ephemeral();
      expect(messageText(refused)).toMatch(/no graveyard: I need \*\*Create Private Threads\*\*/);
      const told = lacking.sim.messagesIn('game').filter((m) => m.content.includes('no graveyard thread'));
      expect(told).toHaveLength(1);
      expect(told[0]!.content).toContain('**Create Private Threads**');
      expect(lacking.sim.threadsOf('game').some((t) => t.name === graveyardThreadName(liveGame.state.id))).toBe(false);

      // The game goes on.
      const day = liveGame.state.day;
      const phase = liveGame.state.phase;
      await toNextPhase(lacking, liveGame);
      expect(`${liveGame.state.phase} ${liveGame.state.day}`).not.toBe(`${phase} ${day}`);
    } finally {
      await lacking.close();
    }
  });
});
