/** What people read in the lobby and in persona replies: names as they are, seats as the game allows, a Start said once. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { AI, seedWhere, settle } from './playing.ts';
import { fromNow, tidy } from './shared-world.ts';

/** Every person is a Townsperson, so each AI seat has a night move to decide. */
const SEED = seedWhere((roles) => Object.values(roles).every((role) => role === 'townsperson'));

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const BIO =
  'Carol Vance was a sharp, patient card player from Leeds, curious and proud. She kept ledgers of every hand she ever lost. ' +
  'Friends found her witty and guarded; she once said "Never trust the quiet one at the table" and meant it every time.';

/** The lobby's seat list as players read it: one line per seat. */
function seatLines(lobby: SimMessage): string[] {
  const [embed] = lobby.embeds as { description?: string }[];
  return (embed?.description ?? '').split('\n');
}

function field(lobby: SimMessage, name: string): string | undefined {
  const [embed] = lobby.embeds as { fields?: { name: string; value: string }[] }[];
  return embed?.fields?.find((f) => f.name === name)?.value;
}

/** The lobby message as it reads now, after the edits since it was posted. */
const now = (lobby: SimMessage): SimMessage => w.sim.messagesIn({ id: lobby.channelId }).find((m) => m.id === lobby.id)!;

async function openLobby(channel = 'game'): Promise<{ lobby: SimMessage; gameId: string }> {
  const lobby = await w.sim.user('alice').slash(channel, 'mafia', { subcommand: 'create' }).public();
  return { lobby, gameId: w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel(channel).id)!.state.id };
}

const addAi = (persona: string, channel = 'game') =>
  w.sim.user('alice').slash(channel, 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();

/** The lobby edits that follow seats the host added (paced: one edit within two seconds) are out. */
async function lobbyRedrawn(ready: () => boolean): Promise<void> {
  await w.bot.idle();
  w.timers.advanceTo(w.timers.now() + 2000);
  await w.sim.until(ready);
}

describe('names in the lobby', () => {
  it('GIVEN a persona named carol WHEN carol joins after it, or before it THEN the person is carol and the persona carol (AI), either way', async () => {
    // GIVEN alice's persona "carol"
    expect(
      messageText(
        await w.sim
          .user('alice')
          .slash('game', 'persona', { subcommand: 'create', options: { name: 'carol', text: BIO } })
          .ephemeral(),
      ),
    ).toMatch(/Created/);

    // WHEN the persona takes a seat first, then carol joins
    let { lobby, gameId } = await openLobby();
    expect(messageText(await addAi('carol'))).toBe('carol takes a seat.');
    let joined = await w.sim.user('carol').click(lobby, `lobby:join:${gameId}`).updated();
    // THEN the lobby shows carol as herself and the persona marked
    expect(seatLines(joined)).toEqual(['1. alice (host)', '2. carol (AI) 🤖', '3. carol']);

    // WHEN, in another channel, carol joins first, then the persona takes a seat
    ({ lobby, gameId } = await openLobby('other'));
    joined = await w.sim.user('carol').click(lobby, `lobby:join:${gameId}`).updated();
    expect(seatLines(joined)).toEqual(['1. alice (host)', '2. carol']);
    expect(messageText(await addAi('carol', 'other'))).toBe('carol (AI) takes a seat.');
    // THEN the same names
    await lobbyRedrawn(() => seatLines(now(lobby)).length === 3);
    expect(seatLines(now(lobby))).toEqual(['1. alice (host)', '2. carol', '3. carol (AI) 🤖']);
  });
});

describe('the lobby says what the game allows', () => {
  it('GIVEN a preset lobby WHEN it opens and fills THEN the seats say how many the table holds and how many start needs', async () => {
    // GIVEN a lobby with the host alone
    const { lobby, gameId } = await openLobby();
    // THEN the setup names the preset range and the seats say what is missing, not "1/24"
    expect(field(lobby, 'Setup')).toBe('Preset roles for 5–16 players');
    expect(field(lobby, 'Seats')).toBe('1 seated (the table holds 24)\n4 more to start');
    // WHEN four more sit down
    await w.sim.user('bob').click(lobby, `lobby:join:${gameId}`).updated();
    await w.sim.user('carol').click(lobby, `lobby:join:${gameId}`).updated();
    await addAi(AI[0]!);
    await addAi(AI[1]!);
    // THEN the lobby says it can start
    await lobbyRedrawn(() => seatLines(now(lobby)).length === 5);
    expect(field(now(lobby), 'Seats')).toBe('5 seated (the table holds 24)\nReady to start');
  });
});

describe('the Start button', () => {
  it('GIVEN a full lobby WHEN the host presses Start twice at once THEN the game starts once and the second press is told plainly, privately', async () => {
    // GIVEN three people and four AI seated
    const { lobby, gameId } = await openLobby();
    for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${gameId}`).updated();
    for (const persona of AI) await addAi(persona);
    const liveGame = w.bot.liveGames.live[0]!;
    await w.bot.idle();
    const posted = fromNow(() => w.sim.messagesIn('game'));
    const cards = fromNow(() => w.sim.dmsTo('bob'));

    // WHEN alice double-clicks Start
    const first = w.sim.user('alice').click(lobby, `lobby:start:${gameId}`);
    const second = w.sim.user('alice').click(lobby, `lobby:start:${gameId}`);

    // THEN one press starts the game, the other hears it already has, privately
    expect(embedTitle(await first.updated())).toBe('Mafia: game started');
    expect(messageText(await second.ephemeral())).toBe('This game has already started.');
    await w.sim.until(() => liveGame.driver !== null);
    await settle(w, liveGame);
    // AND the game was started once: one deal, one night, one role card, the AI driven once
    expect(liveGame.state.log.filter((e) => e.type === 'game_started')).toHaveLength(1);
    expect(posted().filter((m) => messageText(m).includes('Night 1'))).toHaveLength(1);
    expect(cards().filter((m) => JSON.stringify(m.embeds).includes('You are the'))).toHaveLength(1);
    // AND each AI seat decides its night once (one driver, however many presses)
    w.timers.advanceTo(liveGame.state.deadline!);
    await w.sim.until(() => liveGame.state.phase !== 'night');
    await settle(w, liveGame);
    const nightMoves = liveGame.state.log.flatMap((e) =>
      e.type === 'reasoning' && e.payload.phase === 'night' ? [e.payload.playerId] : [],
    );
    const aiSeats = liveGame.state.players.filter((p) => p.kind === 'ai').map((p) => p.id);
    expect(nightMoves.sort()).toEqual(aiSeats.sort());
    expect(w.log.errors).toEqual([]);
  });
});

function embedTitle(m: SimMessage): string | undefined {
  return (m.embeds as { title?: string }[])[0]?.title;
}
