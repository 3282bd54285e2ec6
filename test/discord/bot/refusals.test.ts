import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isEphemeral, messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { Permissions } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { tidy } from './shared-world.ts';

/** One world for the file, its games ended after each test; a bot that lacks permissions gets a world of its own. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const mafia = (user: string, subcommand: string, options: Record<string, string | number | boolean> = {}, where = 'game') =>
  w.sim.user(user).slash(where, 'mafia', { subcommand, options });

/** The game's log before and after: a refusal must not add a single event. */
function log(): number {
  return w.bot.liveGames.live[0]?.state.log.length ?? 0;
}

async function lobby(): Promise<{ message: SimMessage; id: string }> {
  const message = await mafia('alice', 'create').public();
  return { message, id: w.bot.liveGames.live[0]!.state.id };
}

describe('/mafia refusals: an ephemeral reply a person understands, and nothing changes', () => {
  it('GIVEN a lobby WHEN a second game is created in the channel THEN it is refused', async () => {
    await lobby();
    const before = log();
    expect(messageText(await mafia('bob', 'create').ephemeral())).toMatch(/already has a game open/);
    expect(log()).toBe(before);
    expect(w.bot.liveGames.live).toHaveLength(1);
    // Another channel may have its own.
    await mafia('bob', 'create', {}, 'other').public();
  });

  it('GIVEN a lobby stored by an earlier process WHEN a second game is created in the channel THEN the refusal is private and nothing public is left of it', async () => {
    await lobby();
    await w.restart();
    const handle = mafia('bob', 'create');
    // Answered at once when the database answers within the grace, else after a public placeholder that then goes.
    const refusal = await w.sim.until(() => handle.messages().find((m) => /already has a game open/.test(messageText(m))));
    expect(isEphemeral(refusal)).toBe(true);
    await w.bot.idle();
    expect(w.sim.messagesIn('game').filter((m) => m.interactionId === handle.id)).toEqual([]);
    expect(w.bot.liveGames.live).toHaveLength(1);
  });

  it('GIVEN the bot may not post embeds in the channel WHEN a game is created THEN it is refused, naming what is missing, and no game exists', async () => {
    const lacking = await startWorld({ botLacks: Permissions.EmbedLinks });
    try {
      const refusal = await lacking.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).ephemeral();
      expect(messageText(refusal)).toMatch(/I cannot run a game in this channel: I need \*\*Embed Links\*\*/);
      expect(lacking.bot.liveGames.live).toHaveLength(0);
      expect(await lacking.games.findOpenGameInChannel(lacking.sim.channel('game').id)).toBeNull();
    } finally {
      await lacking.close();
    }
  });

  it('GIVEN the bot may not use webhooks nor make private threads WHEN a game is created THEN the lobby opens and the host alone hears what the game will lack', async () => {
    const lacking = await startWorld({ botLacks: Permissions.ManageWebhooks | Permissions.CreatePrivateThreads });
    try {
      const handle = lacking.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' });
      await handle.public();
      const note = await handle.followUp(0);
      expect(isEphemeral(note)).toBe(true);
      expect(messageText(note)).toContain('**Manage Webhooks**: AI players speak under their own name and avatar');
      expect(messageText(note)).toContain('**Create Private Threads**: the Mafia get a private thread');
      expect(messageText(note)).not.toContain('Attach Files');
      expect(lacking.bot.liveGames.live).toHaveLength(1);
    } finally {
      await lacking.close();
    }
  });

  it('GIVEN DMs WHEN a command that needs a server is used there THEN it says to use it in a server', async () => {
    for (const sub of ['create', 'start', 'status', 'end']) {
      expect(messageText(await mafia('bob', sub, {}, 'dm').ephemeral())).toMatch(/server channel/);
    }
    // /mafia rules works anywhere: the defaults.
    expect(JSON.stringify((await mafia('bob', 'rules', {}, 'dm').ephemeral()).embeds)).toContain('Default rules');
  });

  it('GIVEN bob is seated WHEN he clicks Join again THEN he is told he is already in', async () => {
    const { message, id } = await lobby();
    await w.sim.user('bob').click(message, `lobby:join:${id}`).updated();
    const before = log();
    expect(messageText(await w.sim.user('bob').click(message, `lobby:join:${id}`).ephemeral())).toBe('You are already in this game.');
    expect(log()).toBe(before);
  });

  it('GIVEN a lobby WHEN bob starts it THEN only the host may; WHEN alice starts with too few players THEN the reason is given', async () => {
    const { message, id } = await lobby();
    await w.sim.user('bob').click(message, `lobby:join:${id}`).updated();
    const before = log();
    expect(messageText(await mafia('bob', 'start').ephemeral())).toBe('Only the host of this game can do that.');
    expect(messageText(await w.sim.user('bob').click(message, `lobby:start:${id}`).ephemeral())).toBe(
      'Only the host of this game can do that.',
    );
    expect(messageText(await mafia('alice', 'start').ephemeral())).toMatch(/cannot start yet: .*5–16 players; this game has 2/);
    expect(log()).toBe(before);
    expect(w.bot.liveGames.live[0]!.state.phase).toBe('lobby');
  });

  it('GIVEN a running game WHEN seats are added or removed THEN refused, and the lobby no longer offers Join', async () => {
    const { message, id } = await lobby();
    await w.sim.user('bob').click(message, `lobby:join:${id}`).updated();
    for (const name of ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple']) await mafia('alice', 'add-ai', { persona: name }).ephemeral();
    await mafia('alice', 'start').public();
    await w.bot.idle();
    const before = w.bot.liveGames.live[0]!.state.players.length;
    // The lobby buttons are gone, so carol can only try the command route.
    expect(w.sim.messagesIn('game').find((m) => m.id === message.id)!.components).toHaveLength(0);
    expect(messageText(await mafia('alice', 'add-ai', { persona: 'Cleopatra' }).ephemeral())).toMatch(/already started/);
    expect(messageText(await mafia('alice', 'remove', { player: 'bob' }).ephemeral())).toMatch(/only be removed in the lobby/);
    expect(w.bot.liveGames.live[0]!.state.players.length).toBe(before);
  });

  it('GIVEN a lobby WHEN the host adds an unknown persona or a non-host adds one THEN both are refused', async () => {
    await lobby();
    const before = log();
    expect(messageText(await mafia('alice', 'add-ai', { persona: 'Nobody At All' }).ephemeral())).toMatch(/no persona "Nobody At All"/);
    expect(messageText(await mafia('bob', 'add-ai', { persona: 'Cleopatra' }).ephemeral())).toBe('Only the host of this game can do that.');
    expect(messageText(await mafia('alice', 'remove', { player: 'zed' }).ephemeral())).toMatch(/Nobody called "zed"/);
    expect(messageText(await mafia('alice', 'create', { roles: 'mafia, wizard' }, 'other').ephemeral())).toMatch(
      /I do not know the role "wizard"/,
    );
    expect(messageText(await mafia('alice', 'create', { roles: 'mafia, mafia, townsperson' }, 'other').ephemeral())).toMatch(
      /must be fewer/,
    );
    expect(log()).toBe(before);
  });

  it('GIVEN a lobby WHEN bob ends it THEN refused; WHEN a server manager ends it THEN it ends and the channel is free', async () => {
    await lobby();
    expect(messageText(await mafia('bob', 'end').ephemeral())).toMatch(/Only the host or someone with Manage Server/);
    expect(w.bot.liveGames.live).toHaveLength(1);
    expect(messageText(await mafia('mod', 'end').public())).toContain('mod ended the game');
    await w.sim.until(() => w.bot.liveGames.live.length === 0);
    expect(messageText(await mafia('bob', 'status').ephemeral())).toMatch(/no game in this channel/);
    await mafia('bob', 'create').public();
  });

  it('GIVEN a custom setup with switches WHEN /mafia rules is asked THEN the game’s own switches are shown', async () => {
    await mafia('alice', 'create', { roles: 'mafia, detective, townsperson x3', 'no-lynch': false, 'day-seconds': 120 }).public();
    const rules = JSON.stringify((await mafia('bob', 'rules').ephemeral()).embeds);
    expect(rules).toContain('Vote to lynch nobody: **off**');
    expect(rules).toContain('Day **120s**');
    expect(rules).toContain('Custom: Mafia, Detective, Townsperson, Townsperson, Townsperson');
  });
});
