/** The bot as `npm start` runs it (`node --import tsx src/main.ts`), in a process of its own, logged into the simulator. */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { DiscordSim } from '../fakes/discord/index.ts';

/** Starts it with only PATH, the simulator's token and REST address, and `env` on top; its output is piped. */
export function spawnBot(
  sim: Pick<DiscordSim, 'token' | 'restApi'>,
  env: Record<string, string>,
): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, DISCORD_TOKEN: sim.token, DISCORD_API_URL: sim.restApi, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
