/** Playing a game on the simulator step by step, the same way every time (for restarts and refusals). */
import { expect } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { nightActionMessage, SKIP_VALUE } from '../../../src/discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import * as engine from '../../../src/game/index.ts';
import type { GameState, RoleId, SettingsInput } from '../../../src/game/index.ts';
import { parseRoleList } from '../../../src/interactions/mafia/role-list.ts';
import type { Result } from '../../../src/result.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import type { World } from './harness.ts';

export const HUMANS = ['alice', 'bob', 'carol'] as const;

/**
 * How long a wait for a named state may take before it counts as a hang: a bound, not a timing
 * (a world's first game seats its AI in about 5 s on a 2-core machine under a load of 20).
 */
const HANG_MS = 30_000;
export const AI = ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple', 'Oscar Wilde'];

export function options(m: SimMessage, customId: string): string[] {
  for (const row of m.components as { components: { custom_id?: string; options?: { value: string }[] }[] }[]) {
    for (const c of row.components)
      if (c.custom_id === customId || c.custom_id?.startsWith(`${customId}:`)) return (c.options ?? []).map((o) => o.value);
  }
  return [];
}

export function seated(state: GameState, name: string) {
  return state.players.find((p) => p.name === name)!;
}

/** The live table of this game in the bot as it is now (a restart makes new ones). */
export function liveGameOf(w: World, gameId: string): LiveGame | undefined {
  return w.bot.liveGames.live.find((t) => t.state.id === gameId);
}

/**
 * Everything the bot and the AI seats owe right now is done and delivered: nothing moves any more.
 * With `waitForAi: false` only the bot's own work: for models that hang until the clock ends them.
 */
export async function settle(w: World, liveGame: LiveGame, { waitForAi = true } = {}): Promise<void> {
  let seen = -1;
  while (seen !== liveGame.state.log.length) {
    seen = liveGame.state.log.length;
    await w.bot.idle();
    if (waitForAi) await liveGame.driver?.idle();
    await w.bot.idle();
  }
}

/**
 * alice hosts; bob and carol join; the AI personas take seats; alice starts. `mafiaThread: false`
 * waits only for the AI to be seated (a game whose Mafia chat by DM); `patience` is each step's wait.
 */
export async function openGame(
  w: World,
  create: Record<string, string | number | boolean> = {},
  channel = 'game',
  { waitForAi = true, mafiaThread = true, patience }: { waitForAi?: boolean; mafiaThread?: boolean; patience?: { timeoutMs: number } } = {},
): Promise<LiveGame> {
  const wait = patience ?? {};
  const lobby = await w.sim.user('alice').slash(channel, 'mafia', { subcommand: 'create', options: create }).public(wait);
  const liveGame = w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel(channel).id)!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated(wait);
  for (const persona of AI)
    await w.sim.user('alice').slash(channel, 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral(wait);
  await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated(wait);
  if (mafiaThread)
    await w.sim.until(() => liveGame.driver !== null && liveGame.mafiaThreadId !== null, {
      timeoutMs: patience?.timeoutMs ?? HANG_MS,
      description: 'the AI seated and the Mafia thread made',
    });
  else await w.sim.until(() => liveGame.driver !== null, patience ?? { timeoutMs: HANG_MS, description: 'the AI seated' });
  await settle(w, liveGame, { waitForAi });
  return liveGame;
}

/** The newest night menu in this person's DMs. */
export function nightMenu(w: World, name: string, gameId: string): SimMessage | undefined {
  return w.sim
    .dmsTo(name)
    .filter((m) => options(m, `night:${gameId}`).length > 0)
    .at(-1);
}

/**
 * What the people do in the phase the game is in, one after another, each only once the AI seats
 * are idle (so no click races an AI move): at night the first target of their newest menu, by day a
 * line in the channel, in the vote the first other player, in last words a plea.
 */
export async function humansAct(w: World, gameId: string, used: Set<string>, afterEach?: (name: string) => Promise<void>): Promise<void> {
  // Looked up again before each person: `afterEach` may restart the bot, which makes a new table.
  let liveGame = liveGameOf(w, gameId)!;
  const start = liveGame.state;
  const still = () => liveGame.state.phase === start.phase && liveGame.state.day === start.day;
  for (const name of HUMANS) {
    liveGame = liveGameOf(w, gameId) ?? liveGame;
    await settle(w, liveGame);
    const me = seated(liveGame.state, name);
    if (!still() || !me.alive) continue;
    if (start.phase === 'night') {
      const menu = nightMenu(w, name, gameId);
      if (!menu || used.has(menu.id) || !options(menu, `night:${gameId}`).some((v) => v !== SKIP_VALUE)) continue;
      used.add(menu.id);
      const choice = options(menu, `night:${gameId}`).find((v) => v !== SKIP_VALUE) ?? SKIP_VALUE;
      expect(messageText(await w.sim.user(name).select(menu, `night:${gameId}`, [choice]).ephemeral())).toMatch(/^Noted/);
    } else if (start.phase === 'day') {
      const before = liveGame.state.log.length;
      w.sim.user(name).say('game', `${name} thinks someone is lying.`);
      await w.sim.until(() => liveGame.state.log.slice(before).some((e) => e.type === 'speech' && e.payload.playerId === me.id));
    } else if (start.phase === 'vote' && liveGame.voteMessageId && !(me.id in liveGame.state.votes)) {
      const message = w.sim.messagesIn('game').find((m) => m.id === liveGame.voteMessageId)!;
      const choice = options(message, `vote:${gameId}`).find((v) => v !== me.id && v !== NO_LYNCH_VALUE)!;
      expect(messageText(await w.sim.user(name).select(message, `vote:${gameId}`, [choice]).ephemeral())).toMatch(/^Your vote/);
    } else if (start.phase === 'last_words' && start.lynchedToday === me.id) {
      const before = liveGame.state.log.length;
      w.sim.user(name).say('game', 'I was innocent, I swear.');
      await w.sim.until(() => liveGame.state.log.slice(before).some((e) => e.type === 'speech' && e.payload.playerId === me.id));
    } else continue;
    await afterEach?.(name);
  }
  await settle(w, liveGameOf(w, gameId) ?? liveGame);
}

/** Lets the clock reach the phase deadline and waits for the next phase. */
export async function toNextPhase(w: World, liveGame: LiveGame): Promise<void> {
  await settle(w, liveGame);
  const s = liveGame.state;
  if (s.phase === 'ended' || s.deadline === null) return;
  w.timers.advanceTo(s.deadline);
  await w.sim.until(() => liveGame.state.phase !== s.phase || liveGame.state.day !== s.day, {
    timeoutMs: HANG_MS,
    description: `the ${s.phase} to end`,
  });
  await settle(w, liveGame);
}

/** A game at its first vote, nobody killed the night before (the AI seats' votes in). */
export async function gameAtTheVote(w: World): Promise<LiveGame> {
  const liveGame = await openGame(w, { 'night-one-kill': false });
  while (liveGame.state.phase !== 'vote') await toNextPhase(w, liveGame);
  await settle(w, liveGame);
  return liveGame;
}

/** The game's vote message in the channel `game`. */
export function voteMessageOf(w: World, liveGame: LiveGame): SimMessage {
  return w.sim.messagesIn('game').find((m) => m.id === liveGame.voteMessageId)!;
}

/** Who won, and who died in which order: the same game played the same way must end the same. */
export function outcome(state: GameState): { outcome: unknown; deaths: string[] } {
  const ended = state.log.find((e) => e.type === 'game_ended');
  return {
    outcome: ended?.type === 'game_ended' ? ended.payload.outcome : null,
    deaths: state.log.flatMap((e) =>
      e.type === 'player_died'
        ? [`${state.players.find((p) => p.id === e.payload.playerId)?.name} (${e.payload.cause}, day ${e.payload.day})`]
        : [],
    ),
  };
}

/**
 * The first seed from `from` whose deal gives the people (seated first, as openGame seats them)
 * roles that `wanted` accepts (`roleList` as /mafia create takes it): the deal depends only on the
 * seed, the setup and the seat order.
 */
export function seedWhere(wanted: (roles: Record<(typeof HUMANS)[number], RoleId>) => boolean, from = 1, roleList?: string): number {
  const roles = roleList === undefined ? null : parseRoleList(roleList);
  if (roles && !roles.ok) throw new Error(roles.error);
  const settings: SettingsInput = roles?.ok ? { setup: { kind: 'custom', roles: roles.value } } : {};
  for (let seed = from; seed < from + 10_000; seed++) {
    let state = (
      engine.createGame({ gameId: 'probe', seed, settings, at: 0 }) as Extract<Result<engine.Change, engine.GameError>, { ok: true }>
    ).value.state;
    for (const [i, name] of [...HUMANS, ...AI].entries()) {
      const joined = engine.join(state, { player: { id: `p${i}`, name, kind: i < HUMANS.length ? 'human' : 'ai' }, at: 0 });
      if (joined.ok) state = joined.value.state;
    }
    const started = engine.start(state, { at: 0 });
    if (!started.ok) throw new Error(started.error.message);
    const roles = Object.fromEntries(HUMANS.map((name) => [name, seated(started.value.state, name).role!])) as Record<
      (typeof HUMANS)[number],
      RoleId
    >;
    if (wanted(roles)) return seed;
  }
  throw new Error('no seed deals those roles');
}

/** Adds an option to a select of a message, as a tampered client would show it (Discord itself would not). */
export function forgeOption(message: SimMessage, customId: string, value: string): SimMessage {
  for (const row of message.components as { components: { custom_id?: string; options?: { label: string; value: string }[] }[] }[]) {
    for (const c of row.components)
      if (c.custom_id === customId || c.custom_id?.startsWith(`${customId}:`))
        c.options = [...(c.options ?? []), { label: 'forged', value }];
  }
  return message;
}

/** A copy of someone's night menu, DMed to another by the bot itself: what a forged menu would look like. */
export async function forgedMenu(w: World, liveGame: LiveGame, of: string, to: string): Promise<SimMessage> {
  const message = nightActionMessage(liveGame.state, seated(liveGame.state, of).id)!;
  const sent = await w.client.users.send(w.sim.user(to).id, message);
  await w.sim.until(() => w.sim.dmsTo(to).some((m) => m.id === sent.id));
  return w.sim.dmsTo(to).find((m) => m.id === sent.id)!;
}
