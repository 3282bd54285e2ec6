/**
 * The catalog of bad input: each case is one thing a person can do wrong, what they see, and the
 * proof that nothing changed (every live game's state, the stored events and every persona row).
 * The cases share one world, in order: a lobby, then a running game through a night, a day, a
 * vote and a second night, then the persona commands. Add a case here when a new refusal appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { DEAD_NOT_TAKEN } from '../../../src/interactions/mafia/chat.ts';
import { pngWithCard } from '../../../src/persona/card-png.ts';
import { content } from '../../persona/fixtures.ts';
import {
  isEphemeral,
  messageText,
  type InteractionHandle,
  type OptionValue,
  type SimMessage,
} from '../../../scripts/fakes/discord/index.ts';
import { forgedMenu, forgeOption, nightMenu, openGame, seated, seedWhere, settle, toNextPhase } from './playing.ts';
import { OFFLINE, startWorld, type World } from './harness.ts';
import type { LlmConfig } from '../../../src/config.ts';
import { createLlmCallStore } from '../../../src/db/llm-call-store.ts';
import { ledgerRow } from '../../support/ledger-row.ts';
import type { FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';

const ROLES = 'mafia, detective, townsperson x5';
const SEED = seedWhere((r) => r.carol === 'mafia' && r.alice === 'detective', 7, ROLES);

let w: World;
beforeAll(async () => {
  // One open lobby per host (the lobby stage then holds a host at the cap), and 3 personas a person (one stage stands at it).
  w = await startWorld({ seed: SEED, lobbies: { idleMinutes: 60, perHost: 1 }, personaCaps: { perUser: 3, perServer: 500 } });
});
afterAll(() => w.close());

/** What a person sees: an ephemeral reply, or (for a message typed in a channel) a DM. */
type Seen = { kind: 'reply'; handle: InteractionHandle } | { kind: 'dm'; to: string; message: SimMessage };

interface Case {
  /** The bad input, as a person would describe it. */
  readonly input: string;
  /** What they are told: the whole text, or a pattern where it names ids made at run time. */
  readonly sees: RegExp | string;
  readonly act: () => Promise<Seen> | Seen;
}

/** Everything a refusal must leave as it was (in `world`: the catalog's own, or a stage's). */
async function snapshot(world: World = w): Promise<string> {
  const w = world;
  const games = w.bot.liveGames.live.map((t) => ({
    id: t.state.id,
    events: t.state.log.length,
    phase: t.state.phase,
    host: t.hostId,
    players: t.state.players.map((p) => [p.id, p.name, p.kind, p.alive]),
    votes: t.state.votes,
    night: t.state.night,
  }));
  const stored = await w.db.prisma.gameEvent.count();
  const openGames = await w.db.prisma.game.findMany({ select: { id: true, status: true, hostId: true }, orderBy: { id: 'asc' } });
  // A persona's compiled summary is a cache of its profile, written when first used (a refused
  // /persona test compiles it too): what a person made is the rest of the row.
  const personas = (await w.db.prisma.persona.findMany({ orderBy: { id: 'asc' } })).map(
    ({ compiledSummary: _summary, compiledAt: _at, updatedAt: _updated, ...made }) => made,
  );
  // What the model was asked, and paid for: a refusal spends nothing.
  const calls = await w.db.prisma.llmCall.count();
  return JSON.stringify({ games, stored, openGames, personas, calls });
}

async function run(c: Case, world: World = w): Promise<void> {
  const w = world;
  for (const t of w.bot.liveGames.live) await settle(w, t);
  const before = await snapshot(w);
  const seen = await c.act();
  let text: string;
  if (seen.kind === 'reply') {
    const reply = await seen.handle.ephemeral();
    expect(isEphemeral(reply)).toBe(true);
    text = messageText(reply);
  } else {
    text = messageText(seen.message);
  }
  if (typeof c.sees === 'string') expect(text).toBe(c.sees);
  else expect(text).toMatch(c.sees);
  await w.bot.idle();
  for (const t of w.bot.liveGames.live) await settle(w, t);
  expect(await snapshot(w)).toBe(before);
}

const reply = (handle: InteractionHandle): Seen => ({ kind: 'reply', handle });
const mafia = (user: string, subcommand: string, options: Record<string, OptionValue> = {}, where = 'game') =>
  reply(w.sim.user(user).slash(where, 'mafia', { subcommand, options }));
const persona = (user: string, subcommand: string, options: Record<string, OptionValue> = {}, where = 'game') =>
  reply(w.sim.user(user).slash(where, 'persona', { subcommand, options }));

/** A message typed in a channel, answered by DM: the DM that follows. */
async function typed(user: string, channel: string, text: string): Promise<Seen> {
  const dms = w.sim.dmsTo(user).length;
  w.sim.user(user).say(channel, text);
  await w.sim.until(() => w.sim.dmsTo(user).length > dms);
  return { kind: 'dm', to: user, message: w.sim.dmsTo(user).at(-1)! };
}

const catalog: { readonly stage: string; readonly cases: readonly Case[] }[] = [];
let lobbyMessage: SimMessage;
let lobbyId = '';
let liveGame: LiveGame;
let carolNightOne: SimMessage;
let aliceNightOne: SimMessage;
let modMenu: SimMessage;
let voteMessage: SimMessage;
/** The vote message's menu while it was open: what a client that missed the update still shows. */
let openVote: SimMessage['components'] = [];
const ALIEN = '999999999999999999';

function stage(name: string, setup: () => Promise<void>, cases: readonly Case[]): void {
  catalog.push({ stage: name, cases });
  describe(name, () => {
    beforeAll(setup);
    for (const c of cases) it(`${c.input} → ${String(c.sees)}`, () => run(c));
  });
}

stage(
  'GIVEN a lobby in #other hosted by alice, with bob seated',
  async () => {
    lobbyMessage = await w.sim.user('alice').slash('other', 'mafia', { subcommand: 'create' }).public();
    lobbyId = w.bot.liveGames.live[0]!.state.id;
    await w.sim.user('bob').click(lobbyMessage, `lobby:join:${lobbyId}`).updated();
  },
  [
    { input: '/mafia create in a DM', sees: /server channel/, act: () => mafia('bob', 'create', {}, 'dm') },
    { input: '/mafia start in a DM', sees: /server channel/, act: () => mafia('alice', 'start', {}, 'dm') },
    { input: '/mafia status in a DM', sees: /server channel/, act: () => mafia('bob', 'status', {}, 'dm') },
    { input: '/mafia end in a DM', sees: /server channel/, act: () => mafia('alice', 'end', {}, 'dm') },
    { input: '/mafia add-ai in a DM', sees: /server channel/, act: () => mafia('alice', 'add-ai', { persona: 'Cleopatra' }, 'dm') },
    {
      input: 'a second /mafia create in the channel',
      sees: 'This channel already has a game open. Finish it (or ask the host to `/mafia end` it) before creating another.',
      act: () => mafia('carol', 'create', {}, 'other'),
    },
    {
      input: '/mafia create elsewhere by a host at the cap of open lobbies (LOBBIES_PER_HOST=1)',
      sees: /^You already host one open lobby, the most one person may at once: <#\d+>\. Start it, or `\/mafia end` it there, before creating another\. An idle lobby also closes by itself\.$/,
      act: () => mafia('alice', 'create', {}, 'game'),
    },
    {
      input: 'Join clicked by someone already seated',
      sees: 'You are already in this game.',
      act: () => reply(w.sim.user('bob').click(lobbyMessage, `lobby:join:${lobbyId}`)),
    },
    {
      input: 'Start clicked by someone who is not the host',
      sees: 'Only the host of this game can do that.',
      act: () => reply(w.sim.user('bob').click(lobbyMessage, `lobby:start:${lobbyId}`)),
    },
    {
      input: '/mafia start with too few players',
      sees: 'The game cannot start yet: The preset setups are for 5–16 players; this game has 2.',
      act: () => mafia('alice', 'start', {}, 'other'),
    },
    {
      input: '/mafia add-ai of a persona that does not exist',
      sees: /that you may use here/,
      act: () => mafia('alice', 'add-ai', { persona: 'Nobody At All' }, 'other'),
    },
    {
      input: '/mafia add-ai by someone who is not the host',
      sees: 'Only the host of this game can do that.',
      act: () => mafia('bob', 'add-ai', { persona: 'Cleopatra' }, 'other'),
    },
    {
      input: '/mafia remove by someone who is not the host',
      sees: 'Only the host of this game can do that.',
      act: () => mafia('bob', 'remove', { player: 'alice' }, 'other'),
    },
    {
      input: '/mafia remove of someone not seated',
      sees: 'Nobody called "carol" is seated in this game.',
      act: () => mafia('alice', 'remove', { player: 'carol' }, 'other'),
    },
    {
      input: '/mafia end by a player who is not the host',
      sees: 'Only the host or someone with Manage Server can end this game.',
      act: () => mafia('bob', 'end', {}, 'other'),
    },
    {
      input: 'Leave clicked by someone not seated',
      sees: 'You are not in this game.',
      act: () => reply(w.sim.user('carol').click(lobbyMessage, `lobby:leave:${lobbyId}`)),
    },
    {
      input: '/mafia create with an unknown role',
      sees: 'I do not know the role "wizard". Roles: mafia, godfather, detective, doctor, vigilante, jester, townsperson.',
      act: () => mafia('carol', 'create', { roles: 'mafia, wizard x2, doctor' }),
    },
    {
      input: '/mafia create with roles that leave no town',
      sees: 'The Mafia (3) must be fewer than everyone else (0), or they win before the game starts.',
      act: () => mafia('carol', 'create', { roles: 'mafia x3' }),
    },
    {
      input: '/mafia will outside a game',
      sees: 'There is no game in this channel. Open one with `/mafia create`.',
      act: () => mafia('carol', 'will', { text: 'It was bob.' }),
    },
    {
      input: '/mafia status where no game is open',
      sees: 'There is no game in this channel. Open one with `/mafia create`.',
      act: () => mafia('carol', 'status'),
    },
    { input: '/mafia spectate in a DM', sees: /server channel/, act: () => mafia('mod', 'spectate', {}, 'dm') },
    {
      input: '/mafia spectate where no game is open',
      sees: 'There is no game in this channel. Open one with `/mafia create`.',
      act: () => mafia('mod', 'spectate'),
    },
  ],
);

stage(
  'GIVEN a running game in #game: alice the Detective, carol the Mafia, night 1',
  async () => {
    await w.sim.user('alice').slash('other', 'mafia', { subcommand: 'end' }).public();
    await w.sim.until(() => w.bot.liveGames.live.length === 0);
    liveGame = await openGame(w, { roles: ROLES, 'chat-messages': 1 });
    carolNightOne = nightMenu(w, 'carol', liveGame.state.id)!;
    aliceNightOne = nightMenu(w, 'alice', liveGame.state.id)!;
    modMenu = await forgedMenu(w, liveGame, 'alice', 'mod');
  },
  [
    {
      input: 'a night menu used by someone who does not play',
      sees: 'You are not playing in this game.',
      act: () => reply(w.sim.user('mod').select(modMenu, `night:${liveGame.state.id}`, [seated(liveGame.state, 'carol').id])),
    },
    {
      input: 'a night target who is not in the game (a tampered menu)',
      sees: 'That player is not in this game.',
      act: () =>
        reply(
          w.sim
            .user('alice')
            .select(forgeOption(aliceNightOne, `night:${liveGame.state.id}`, ALIEN), `night:${liveGame.state.id}`, [ALIEN]),
        ),
    },
    {
      input: 'the Mafia picking themself (a tampered menu)',
      sees: 'As Mafia you cannot target yourself.',
      act: () => {
        const carol = seated(liveGame.state, 'carol').id;
        return reply(
          w.sim
            .user('carol')
            .select(forgeOption(carolNightOne, `night:${liveGame.state.id}`, carol), `night:${liveGame.state.id}`, [carol]),
        );
      },
    },
    { input: '/mafia create in a channel whose game is running', sees: /already has a game open/, act: () => mafia('carol', 'create') },
    {
      input: '/mafia add-ai once the game has started',
      sees: 'This game has already started; AI players join in the lobby only.',
      act: () => mafia('alice', 'add-ai', { persona: 'Cleopatra' }),
    },
    {
      input: '/mafia remove once the game has started',
      sees: 'The game has started; players can only be removed in the lobby.',
      act: () => mafia('alice', 'remove', { player: 'bob' }),
    },
    {
      input: '/mafia end of a running game by a player who is not the host',
      sees: 'Only the host or someone with Manage Server can end this game.',
      act: () => mafia('bob', 'end'),
    },
    {
      input: '/mafia will by someone who does not play',
      sees: 'You are not playing in this game, so you have no will to write.',
      act: () => mafia('mod', 'will', { text: 'Hello' }),
    },
    {
      input: '/mafia spectate in a game whose host did not allow spectators',
      sees: /did not allow spectators/,
      act: () => mafia('mod', 'spectate'),
    },
  ],
);

stage(
  'GIVEN day 1 of that game, alice killed in the night',
  async () => {
    const night = `night:${liveGame.state.id}`;
    await w.sim
      .user('alice')
      .select(aliceNightOne, night, [seated(liveGame.state, 'carol').id])
      .ephemeral();
    await w.sim
      .user('carol')
      .select(carolNightOne, night, [seated(liveGame.state, 'alice').id])
      .ephemeral();
    await w.sim.until(() => liveGame.state.phase !== 'night');
    await settle(w, liveGame);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    w.sim.user('bob').say('game', 'Good morning.');
    await w.sim.until(() => liveGame.state.log.some((e) => e.type === 'speech' && e.payload.text === 'Good morning.'));
  },
  [
    {
      input: 'a night menu used by day',
      sees: 'Night actions can only be taken at night.',
      act: () => reply(w.sim.user('carol').select(carolNightOne, `night:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id])),
    },
    {
      input: 'a dead player writing in the game channel',
      sees: DEAD_NOT_TAKEN,
      act: () => typed('alice', 'game', 'It was carol, I checked her!'),
    },
    {
      input: 'a person past the chat limit of the phase',
      sees: 'You have said all the AI players will read this phase (1 message or 3,000 characters); the rest stays in the channel for the people.',
      act: () => typed('bob', 'game', 'And one more thing…'),
    },
    {
      input: '/mafia will by a dead player',
      sees: 'You are dead: your will has already been read.',
      act: () => mafia('alice', 'will', { text: 'Too late.' }),
    },
  ],
);

stage(
  'GIVEN the day 1 vote',
  async () => {
    while (liveGame.state.phase !== 'vote') await toNextPhase(w, liveGame);
    voteMessage = w.sim.messagesIn('game').find((m) => m.id === liveGame.voteMessageId)!;
    openVote = structuredClone(voteMessage.components);
  },
  [
    {
      input: 'a vote by a dead player',
      sees: 'You are dead; the dead do not vote.',
      act: () => reply(w.sim.user('alice').select(voteMessage, `vote:${liveGame.state.id}`, [seated(liveGame.state, 'carol').id])),
    },
    {
      input: 'a vote by someone who does not play',
      sees: 'You are not playing in this game.',
      act: () => reply(w.sim.user('mod').select(voteMessage, `vote:${liveGame.state.id}`, [seated(liveGame.state, 'carol').id])),
    },
    {
      input: 'a vote for a dead player (a tampered menu)',
      sees: 'alice is already dead.',
      act: () => {
        const alice = seated(liveGame.state, 'alice').id;
        return reply(
          w.sim.user('carol').select(forgeOption(voteMessage, `vote:${liveGame.state.id}`, alice), `vote:${liveGame.state.id}`, [alice]),
        );
      },
    },
    {
      input: 'a vote for someone not in the game (a tampered menu)',
      sees: 'That player is not in this game.',
      act: () =>
        reply(
          w.sim.user('carol').select(forgeOption(voteMessage, `vote:${liveGame.state.id}`, ALIEN), `vote:${liveGame.state.id}`, [ALIEN]),
        ),
    },
    {
      input: 'a night menu used in the vote',
      sees: 'Night actions can only be taken at night.',
      act: () => reply(w.sim.user('carol').select(carolNightOne, `night:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id])),
    },
  ],
);

stage(
  'GIVEN night 2 of that game',
  async () => {
    while (liveGame.state.phase !== 'night' && liveGame.state.phase !== 'ended') await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('night');
  },
  [
    {
      input: 'the vote menu of day 1 used after the vote closed',
      sees: 'This vote is closed: use the vote message of the current vote.',
      act: () => {
        const closed = w.sim.messagesIn('game').find((m) => m.id === voteMessage.id)!;
        expect(closed.components).toHaveLength(0);
        (closed as { components: unknown }).components = openVote;
        return reply(w.sim.user('carol').select(closed, `vote:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id]));
      },
    },
    {
      input: 'the night 1 menu used on night 2',
      sees: 'This night menu is from a night that is over; nothing changed. Use the newest menu in your DMs.',
      act: () => reply(w.sim.user('carol').select(carolNightOne, `night:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id])),
    },
    {
      input: 'a dead player’s night menu',
      sees: 'You are dead; the dead take no actions.',
      act: () => reply(w.sim.user('alice').select(aliceNightOne, `night:${liveGame.state.id}`, [seated(liveGame.state, 'carol').id])),
    },
  ],
);

const ADA =
  'Ada Lovelace was a brilliant English mathematician, curious and proud. She wrote the first algorithm for the Analytical Engine.';
let adaId = '';

stage(
  'GIVEN alice’s private persona Ada Lovelace',
  async () => {
    const created = await w.personas.create(
      { userId: w.sim.user('alice').id, guildId: null, canManageServer: false },
      { scope: { kind: 'private' }, content: content({}, 'Ada Lovelace') },
    );
    if (!created.ok) throw new Error(created.error.message);
    adaId = created.value.id;
  },
  [
    { input: '/persona show of someone else’s private persona', sees: /no persona/, act: () => persona('bob', 'show', { persona: adaId }) },
    {
      input: '/persona delete of someone else’s private persona',
      sees: /no persona/,
      act: () => persona('bob', 'delete', { persona: adaId }),
    },
    {
      input: '/persona duplicate of someone else’s private persona',
      sees: /no persona/,
      act: () => persona('bob', 'duplicate', { persona: adaId }),
    },
    {
      input: '/persona export of someone else’s private persona',
      sees: /no persona/,
      act: () => persona('bob', 'export', { persona: adaId }),
    },
    { input: '/persona edit of someone else’s private persona', sees: /no persona/, act: () => persona('bob', 'edit', { persona: adaId }) },
    {
      input: '/persona delete of a built-in persona',
      sees: 'Starter personas are read-only; duplicate it and edit the copy.',
      act: () => persona('alice', 'delete', { persona: 'Sherlock Holmes' }),
    },
    {
      input: '/persona create with a blank name',
      sees: 'The name must not be empty.',
      act: () => persona('alice', 'create', { name: '   ', text: ADA }),
    },
    {
      input: '/persona create with both text and a file',
      sees: 'Give the biography as text or as a file, not both.',
      act: () => persona('alice', 'create', { name: 'Both', text: ADA, file: { filename: 'ada.txt', content: ADA } }),
    },
    {
      input: '/persona create from a file that is not text',
      sees: /not a text file/,
      act: () => persona('alice', 'create', { name: 'Pic', file: { filename: 'ada.png', content: Buffer.from([1, 2, 3]) } }),
    },
    {
      input: '/persona create from an oversize file',
      sees: 'huge.txt is 489 KiB; the limit is 391 KiB.',
      act: () => persona('alice', 'create', { name: 'Huge', file: { filename: 'huge.txt', content: 'x '.repeat(250_000) } }),
    },
    {
      input: '/persona create under a name already taken',
      sees: /^Nothing was created: A persona named "ada lovelace" already exists here\./,
      act: () => persona('alice', 'create', { name: 'ada lovelace', text: ADA }),
    },
    {
      input: '/persona create of a server persona without Manage Server',
      sees: /^Nothing was created: Adding a server persona needs the Manage Server permission\./,
      act: () => persona('bob', 'create', { name: 'Bobs Ada', text: ADA, scope: 'server' }),
    },
    {
      input: '/persona import of a file that is neither an export nor a card',
      sees: /is not a file I can import/,
      act: () => persona('alice', 'import', { file: { filename: 'notes.txt', content: 'hello' } }),
    },
    {
      input: '/persona import of broken JSON',
      sees: /Nothing was imported: The card is not valid JSON/,
      act: () => persona('alice', 'import', { file: { filename: 'broken.json', content: '{"spec": "chara_card_v2", "data": ' } }),
    },
    {
      input: '/persona list past the last page',
      sees: 'There is only 1 page of personas.',
      act: () => persona('alice', 'list', { page: 99 }),
    },
    {
      input: '/persona test with an empty situation',
      sees: 'Describe a situation for the persona to answer.',
      act: async () => {
        const form = await w.sim
          .user('alice')
          .slash('game', 'persona', { subcommand: 'test', options: { persona: adaId } })
          .modal();
        return reply(w.sim.user('alice').submitModal(form.custom_id, { situation: '   ' }));
      },
    },
    {
      input: '/persona test of a persona one may not use',
      sees: /no persona|no longer exists/,
      act: () => persona('bob', 'test', { persona: adaId, situation: 'You are accused.' }),
    },
  ],
);

const CAPPED = 'You already have 3 personas; the limit is 3 a person. Delete one with /persona delete, then try again.';
/** A card whose `extensions` hold 900 KB: under the 1 MiB a card may weigh, far over what a persona keeps. */
const BLOATED_CARD = pngWithCard(
  JSON.stringify({
    spec: 'chara_card_v2',
    data: { name: 'Bloat', description: 'A card that carries a lot.', extensions: { blob: 'x'.repeat(900_000) } },
  }),
);

/** A card of 15 greetings of about 20,000 characters each: every field within its limit, the whole far over what a persona keeps. */
const GREETY_CARD = {
  spec: 'chara_card_v2',
  data: {
    name: 'Greety',
    description: 'Says hello at length.',
    alternate_greetings: Array.from({ length: 15 }, () => 'Hello. '.repeat(2_800)),
  },
};

stage(
  'GIVEN carol owns 3 personas, the most one person may keep',
  async () => {
    for (const name of ['Carol One', 'Carol Two', 'Carol Three']) {
      const created = await w.personas.create(
        { userId: w.sim.user('carol').id, guildId: null, canManageServer: false },
        { scope: { kind: 'private' }, content: content({}, name) },
      );
      if (!created.ok) throw new Error(created.error.message);
    }
  },
  [
    {
      input: '/persona create past the per-person cap',
      sees: `Nothing was created: ${CAPPED}\nYour biography is attached: use it with \`/persona create file:\` once this is fixed.`,
      act: () => persona('carol', 'create', { name: 'Carol Four', text: ADA }),
    },
    {
      input: '/persona duplicate past the per-person cap',
      sees: `Nothing was copied: ${CAPPED}`,
      act: () => persona('carol', 'duplicate', { persona: 'Sherlock Holmes' }),
    },
    {
      input: '/persona import past the per-person cap',
      sees: `Nothing was imported: ${CAPPED}`,
      act: () => persona('carol', 'import', { file: { filename: 'bloat.png', content: Buffer.from(BLOATED_CARD) } }),
    },
    {
      input: '/persona import of a PNG card with 900 KB of extensions',
      sees: 'Nothing was imported: The card is too large to keep: card.extensions: must be at most 16 KiB as JSON (it is 879 KiB).',
      act: () => persona('alice', 'import', { file: { filename: 'bloat.png', content: Buffer.from(BLOATED_CARD) } }),
    },
    {
      input: '/persona import of a card whose fields each fit but come to about 290 KiB together',
      sees: /^Nothing was imported: The persona is 2\d\d KiB in all \(its profile, parts, traits, arc and card together\); the limit is 256 KiB\./,
      act: () => persona('alice', 'import', { file: { filename: 'greetings.json', content: Buffer.from(JSON.stringify(GREETY_CARD)) } }),
    },
  ],
);

/**
 * Spent budgets, in a world of their own on the OpenAI wire fake (the catalog's world plays
 * offline, where no budget is ever asked). Earlier today the server spent its budget, and alice
 * spent hers and the DMs' in DMs: each person is told which budget ran out and when it resets,
 * privately, no call reaches the model and nothing is stored.
 */
const budgets: { world?: World; fake?: FakeLlmServer } = {};
const SITUATION = 'Carol accuses you of being Mafia.';
const spentToday = (world: World, spender: { guildId: string | null; userId: string | null }) =>
  createLlmCallStore(world.db.prisma).record(ledgerRow(5000, { ...spender, purpose: 'persona_test' }));
const testIn = (user: string, where: string) =>
  reply(
    budgets
      .world!.sim.user(user)
      .slash(where, 'persona', { subcommand: 'test', options: { persona: 'Sherlock Holmes', situation: SITUATION } }),
  );
const BUDGET_CASES: readonly Case[] = [
  {
    input: "/persona test in a server whose day's AI budget is spent",
    sees: /^This server's AI budget for today is spent; it resets at midnight UTC \(in (\d+ h )?\d+ min\)\./,
    act: () => testIn('bob', 'game'),
  },
  {
    input: '/persona test by a person whose own AI budget for the day is spent (in DMs or any server)',
    sees: /^Your own AI budget for today \(what you ask of the AI in every server and in DMs\) is spent; it resets at midnight UTC/,
    act: () => testIn('alice', 'dm'),
  },
  {
    input: "/persona test in a DM when the bot's AI budget for DMs is spent",
    sees: /^The bot's AI budget for DMs for today is spent; it resets at midnight UTC/,
    act: () => testIn('carol', 'dm'),
  },
];
catalog.push({ stage: 'spent budgets', cases: BUDGET_CASES });
describe('spent budgets', () => {
  beforeAll(async () => {
    const fake = await startFakeOpenAi();
    const llm: LlmConfig = {
      ...OFFLINE,
      provider: 'openai',
      openai: { apiKey: 'test-key', baseURL: fake.baseURL, model: 'openai-test-model' },
      timeoutMs: 5000,
      dailyTokenBudget: 1000,
      dmDailyTokenBudget: 1000,
      userDailyTokenBudget: 1000,
    };
    const world = await startWorld({ llm, model: fake });
    await spentToday(world, { guildId: world.sim.guild().id, userId: null });
    await spentToday(world, { guildId: null, userId: world.sim.user('alice').id });
    Object.assign(budgets, { world, fake });
  });
  afterAll(() => budgets.world?.close());
  for (const c of BUDGET_CASES)
    it(`${c.input} → ${String(c.sees)}`, async () => {
      await run(c, budgets.world);
      expect(budgets.fake!.requests).toHaveLength(0);
    });
});

describe('the catalog', () => {
  it('GIVEN every stage WHEN counted THEN it lists at least forty bad inputs, each told apart', () => {
    const inputs = catalog.flatMap((s) => s.cases.map((c) => c.input));
    expect(inputs.length).toBeGreaterThanOrEqual(40);
    expect(new Set(inputs).size).toBe(inputs.length);
  });
});
