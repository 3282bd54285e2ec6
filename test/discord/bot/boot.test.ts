import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { PHASE_TITLE } from '../../../src/game/index.ts';
import { startWorld, type World } from './harness.ts';

// A failed child process, as promisified execFile rejects with it.
const exited = z.object({ code: z.number(), stderr: z.string() });

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('boot', () => {
  it('GIVEN commands already registered WHEN the bot boots again THEN it only reads them (GET) and sends no PUT', async () => {
    w = await startWorld();
    expect(w.bot.registration.changed).toBe(true);
    expect(w.sim.requests('PUT', '/applications/:appId/commands')).toHaveLength(1);
    const bot = await w.restart();
    expect(bot.registration).toEqual({ changed: false });
    expect(w.sim.requests('PUT', '/applications/:appId/commands')).toHaveLength(1);
    expect(w.sim.requests('GET', '/applications/:appId/commands')).toHaveLength(2);
  });

  it('GIVEN a running game WHEN the process restarts THEN the game is resumed at its phase and answers commands', async () => {
    w = await startWorld();
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    const id = w.bot.liveGames.live[0]!.state.id;
    await w.sim.user('bob').click(lobby, `lobby:join:${id}`).updated();
    for (const name of ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple']) {
      await w.sim
        .user('alice')
        .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: name } })
        .ephemeral();
    }
    await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'start' }).public();
    // The bot's idle includes seating the AI; the driver's, every AI move: nothing moves until the manual clock does.
    await w.bot.idle();
    await w.bot.liveGames.live[0]!.driver?.idle();
    await w.bot.idle();
    const before = w.bot.liveGames.live[0]!.state;

    const bot = await w.restart();

    expect(bot.liveGames.live.map((t) => t.state.id)).toEqual([id]);
    const after = bot.liveGames.live[0]!.state;
    expect(after.phase).toBe(before.phase);
    expect(after.deadline).toBe(before.deadline);
    expect(after.log.length).toBeGreaterThanOrEqual(before.log.length);
    expect(bot.liveGames.live[0]!.driver).not.toBeNull();
    expect(JSON.stringify((await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'status' }).ephemeral()).embeds)).toContain(
      `Mafia: ${PHASE_TITLE[before.phase]} ${before.day}`,
    );
    expect(messageText(await w.sim.user('carol').slash('game', 'mafia', { subcommand: 'create' }).ephemeral())).toMatch(
      /already has a game open/,
    );
  });

  it('GIVEN no DISCORD_TOKEN WHEN npm start runs THEN it exits 1 saying where to get a token and what to put in .env', async () => {
    const run = promisify(execFile);
    const result = await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { PATH: process.env.PATH, DISCORD_TOKEN: '', DATABASE_URL: 'memory' },
      cwd: process.cwd(),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: unknown) => exited.parse(error),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DISCORD_TOKEN is not set');
    expect(result.stderr).toContain('Bot → Reset Token');
    expect(result.stderr).toContain('Message Content Intent');
    expect(result.stderr).toContain('"bot" and "applications.commands"');
    expect(result.stderr).toContain('DISCORD_TOKEN=your-token-here');
  });
});
