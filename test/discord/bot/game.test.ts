import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getRole, isMafia, type GameState } from '../../../src/game/index.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { SKIP_VALUE } from '../../../src/discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { voteMessageOf } from './playing.ts';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const HUMANS = ['alice', 'bob', 'carol'] as const;
const AI = ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple', 'Oscar Wilde'];

function text(m: SimMessage): string {
  return `${m.content} ${JSON.stringify(m.embeds)}`;
}

function options(m: SimMessage, customId: string): string[] {
  for (const row of m.components as { components: { custom_id?: string; options?: { value: string }[] }[] }[]) {
    for (const c of row.components)
      if (c.custom_id === customId || c.custom_id?.startsWith(`${customId}:`)) return (c.options ?? []).map((o) => o.value);
  }
  return [];
}

/** Everything the bot and the AI seats owe right now is done and delivered. */
async function settle(liveGame: LiveGame): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await w.bot.idle();
    await liveGame.driver?.idle();
  }
  await w.bot.idle();
}

async function startGame(): Promise<LiveGame> {
  const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options: {} }).public();
  const liveGame = w.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
  for (const persona of AI) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
  await w.sim.until(() => liveGame.driver !== null && liveGame.mafiaThreadId !== null);
  await settle(liveGame);
  return liveGame;
}

function human(state: GameState, name: string) {
  return state.players.find((p) => p.name === name)!;
}

describe('a full game on Discord: 3 humans and 4 AI personas', () => {
  it("GIVEN a started game WHEN everyone plays through nights, days and votes THEN it ends with the director's cut, and each human saw only their own secrets", async () => {
    const liveGame = await startGame();
    const gameId = liveGame.state.id;
    const customNight = `night:${gameId}`;
    const customVote = `vote:${gameId}`;
    const nightMenusSeen = new Map<string, number>();
    const used = new Set<string>();

    for (let step = 0; step < 80 && liveGame.state.phase !== 'ended'; step++) {
      await settle(liveGame);
      const s = liveGame.state;
      if (s.phase === 'night') {
        for (const name of HUMANS) {
          const me = human(s, name);
          if (!me.alive || liveGame.state.phase !== 'night') continue;
          const menu = w.sim
            .dmsTo(name)
            .filter((m) => options(m, customNight).length > 0)
            .at(-1);
          if (!menu || used.has(menu.id)) continue;
          used.add(menu.id);
          nightMenusSeen.set(name, (nightMenusSeen.get(name) ?? 0) + 1);
          const choice = options(menu, customNight).find((v) => v !== SKIP_VALUE) ?? SKIP_VALUE;
          const reply = await w.sim.user(name).select(menu, customNight, [choice]).ephemeral();
          // The AI seats act at the same time; the night may have closed under the click, which is then refused.
          const now = liveGame.state;
          if (now.phase === 'night' && now.day === s.day) expect(messageText(reply)).toMatch(/^Noted/);
          else expect(messageText(reply)).toMatch(/^Noted|only be taken at night/);
        }
      } else if (s.phase === 'day') {
        for (const name of HUMANS) if (human(s, name).alive) w.sim.user(name).say('game', `${name} thinks someone is lying.`);
        const before = liveGame.state.log.length;
        const living = HUMANS.filter((n) => human(s, n).alive);
        await w.sim.until(
          () =>
            living.every((n) =>
              liveGame.state.log.slice(before - 1).some((e) => e.type === 'speech' && e.payload.playerId === human(s, n).id),
            ) || liveGame.state.phase !== 'day',
        );
      } else if (s.phase === 'vote' && liveGame.voteMessageId) {
        const message = voteMessageOf(w, liveGame);
        for (const name of HUMANS) {
          const me = human(liveGame.state, name);
          if (!me.alive || liveGame.state.phase !== 'vote' || me.id in liveGame.state.votes) continue;
          const choice = options(message, customVote).find((v) => v !== me.id && v !== NO_LYNCH_VALUE)!;
          expect(messageText(await w.sim.user(name).select(message, customVote, [choice]).ephemeral())).toMatch(/^Your vote/);
        }
      } else if (s.phase === 'last_words') {
        const lynched = s.players.find((p) => p.id === s.lynchedToday);
        if (lynched?.kind === 'human') w.sim.user(lynched.name).say('game', 'I was innocent, I swear.');
      }
      await settle(liveGame);
      if (liveGame.state.phase === s.phase && liveGame.state.day === s.day && liveGame.state.deadline !== null) {
        w.timers.advanceTo(liveGame.state.deadline);
        // The deadline's advance goes through the session's queue; wait for it to land.
        await w.sim.until(() => liveGame.state.phase !== s.phase || liveGame.state.day !== s.day, { timeoutMs: 5000 });
      }
    }
    await settle(liveGame);
    const state = liveGame.state;
    expect(state.phase).toBe('ended');

    // Each human's DMs hold their own role card and, at night, their own menus only.
    for (const name of HUMANS) {
      const me = human(state, name);
      const dms = w.sim.dmsTo(name);
      expect(text(dms[0]!)).toContain(`You are the ${getRole(me.role!).name}`);
      expect(dms.filter((m) => text(m).includes('You are the'))).toHaveLength(1);
      const hasAction = getRole(me.role!).nightAction !== null;
      if (!hasAction) expect(dms.some((m) => options(m, customNight).length > 0)).toBe(false);
      for (const other of state.players) {
        if (other.id === me.id || (isMafia(me.role) && isMafia(other.role))) continue;
        for (const m of dms) expect(text(m)).not.toContain(`${other.name} (${getRole(other.role!).name})`);
      }
    }
    expect([...nightMenusSeen.keys()].every((n) => getRole(human(state, n).role!).nightAction !== null)).toBe(true);

    // The Mafia thread holds only the Mafia: its human members, and AI speech only from AI Mafia.
    const thread = w.sim.threadsOf('game').find((t) => t.id === liveGame.mafiaThreadId)!;
    const humanMafia = state.players.filter((p) => p.kind === 'human' && isMafia(p.role)).map((p) => p.userId!);
    expect(
      w.sim
        .threadMembers(thread)
        .filter((id) => id !== w.client.user.id)
        .sort(),
    ).toEqual(humanMafia.sort());
    const aiMafia = new Set(state.players.filter((p) => p.kind === 'ai' && isMafia(p.role)).map((p) => p.name));
    for (const m of w.sim.webhookMessages(thread)) expect(aiMafia.has(m.displayName)).toBe(true);
    for (const name of HUMANS) {
      // alice owns the server, and owners see every private thread (as on Discord).
      if (isMafia(human(state, name).role) || name === 'alice') continue;
      expect(() => w.sim.user(name).say(thread, 'let me in')).toThrow();
    }

    // AI speech in the game channel went through one webhook under the personas' names.
    expect(w.sim.webhooksIn('game')).toHaveLength(1);
    const aiNames = new Set(AI);
    const spoken = w.sim.webhookMessages('game').filter((m) => m.channelId === w.sim.channel('game').id);
    expect(spoken.length).toBeGreaterThan(0);
    for (const m of spoken) expect(aiNames.has(m.displayName)).toBe(true);

    // People's words entered the transcript: everyone who lived to see day 1 spoke in it.
    const firstNight = state.log.find((e) => e.type === 'night_resolved');
    const diedFirstNight = new Set(firstNight?.type === 'night_resolved' ? firstNight.payload.deaths : []);
    const sawDayOne = HUMANS.map((n) => human(state, n)).filter((p) => !diedFirstNight.has(p.id));
    expect(sawDayOne.length).toBeGreaterThanOrEqual(2);
    for (const p of sawDayOne) expect(state.log.some((e) => e.type === 'speech' && e.payload.playerId === p.id)).toBe(true);

    // The director's cut: a message with the Markdown file and the HTML replay, and a thread on it.
    const cut = w.sim.messagesIn('game').find((m) => m.attachments.some((a) => a.filename === `directors-cut-${gameId}.md`));
    expect(cut?.attachments.map((a) => a.filename)).toContain(`replay-${gameId}.html`);
    // With the pictures of the game: who voted for whom, and how the AI seats read the table.
    for (const picture of [`vote-flow-${gameId}.png`, `suspicion-${gameId}.png`]) {
      const file = cut!.attachments.find((a) => a.filename === picture);
      expect(file?.data.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    expect(w.sim.threadsOf('game').some((t) => (t.name ?? '').startsWith("Director's cut"))).toBe(true);
    expect(w.sim.failedRequests()).toEqual([]);
  });
});
