import { REST, Routes, ShardingManager, type Shard } from 'discord.js';
import { z } from 'zod';
import type { Logger } from '../log.ts';

export interface ShardingManagerSettings {
  readonly token: string;
  /** REST base (the simulator in tests); unset: Discord. */
  readonly apiUrl: string | undefined;
  /** Shards across every machine; `auto`: as many as Discord recommends for the bot. */
  readonly count: number | 'auto';
  /** The shards this machine runs; `all`: every one. */
  readonly ids: readonly number[] | 'all';
  /** The entry point each shard process runs (src/main.ts: it knows it is a shard from discord.js's env). */
  readonly shardFile: string;
  readonly log: Logger;
  /** Between two shards' starts: Discord lets a bot identify once per 5 s (default 5.5 s). */
  readonly spawnDelayMs?: number;
  /** Resolves when the operator asks to stop; resolves again (a second call) for "now". */
  readonly stopRequested: () => Promise<string>;
}

/** A shard that dies this often within CRASH_WINDOW_MS is not started again: the cause will not go away by itself. */
const CRASH_LIMIT = 5;
const CRASH_WINDOW_MS = 60_000;

const GatewayBot = z.object({ shards: z.number().int().min(1) });

/** Discord's recommended shard count for this bot (`GET /gateway/bot`), through the configured REST base. */
async function recommendedShards(token: string, apiUrl: string | undefined): Promise<number> {
  const rest = new REST(apiUrl === undefined ? {} : { api: apiUrl }).setToken(token);
  return GatewayBot.parse(await rest.get(Routes.gatewayBot())).shards;
}

/**
 * `npm start` with SHARDS > 1 or auto: discord.js's ShardingManager runs each shard as its own
 * process (src/main.ts again) and starts one that dies again. This process serves no Discord events
 * and opens no database; on SIGINT/SIGTERM it asks every shard to stop (SIGTERM), waits for them and exits.
 */
export async function runShardingManager(settings: ShardingManagerSettings): Promise<number> {
  const { log } = settings;
  const count = settings.count === 'auto' ? await recommendedShards(settings.token, settings.apiUrl) : settings.count;
  const ids = settings.ids === 'all' ? [...Array(count).keys()] : [...settings.ids];
  const outside = ids.filter((id) => id >= count);
  if (outside.length > 0) {
    log.error(`SHARD_IDS names shard ${outside.join(', ')}, but the bot has ${String(count)} shards (0 to ${String(count - 1)})`);
    return 1;
  }
  const manager = new ShardingManager(settings.shardFile, {
    token: settings.token,
    totalShards: count,
    shardList: ids,
    mode: 'process',
    respawn: true,
    execArgv: ['--import', 'tsx'],
  });
  let crashLoop: (reason: string) => void = () => undefined;
  const crashed = new Promise<string>((resolve) => (crashLoop = resolve));
  manager.on('shardCreate', (shard) => watch(shard, log, crashLoop));
  log.info(`running shards ${ids.join(', ')} of ${String(count)}, one process each`);
  const spawning = manager.spawn({ amount: count, delay: settings.spawnDelayMs ?? 5_500, timeout: -1 });
  const reason = await Promise.race([settings.stopRequested(), crashed]);
  log.info(`${reason}: stopping the shards`);
  await spawning.catch((error: unknown) => log.error(`spawning shards: ${String(error)}`));
  manager.respawn = false;
  const shards = [...manager.shards.values()];
  const exits = shards.map((shard) => exitOf(shard));
  for (const shard of shards) shard.process?.kill('SIGTERM');
  // A second request: the shards are told again, which makes them exit without waiting.
  void settings.stopRequested().then(() => {
    for (const shard of shards) shard.process?.kill('SIGTERM');
  });
  const codes = await Promise.all(exits);
  const failed = codes.filter((code) => code !== 0).length;
  if (failed > 0) log.warn(`${String(failed)} shard(s) did not stop cleanly`);
  return reason.startsWith('shard') ? 1 : 0;
}

/** Logs a shard's life; calls `crashLoop` when it keeps dying. */
function watch(shard: Shard, log: Logger, crashLoop: (reason: string) => void): void {
  const deaths: number[] = [];
  shard.on('spawn', () => log.info(`shard ${String(shard.id)} started (process ${String(shard.process?.pid ?? '?')})`));
  shard.on('death', (child) => {
    const code = 'exitCode' in child ? child.exitCode : null;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && (deaths[0] ?? now) < now - CRASH_WINDOW_MS) deaths.shift();
    if (shard.manager.respawn) log.warn(`shard ${String(shard.id)} died (exit code ${String(code)}); starting it again`);
    if (deaths.length >= CRASH_LIMIT) {
      shard.manager.respawn = false;
      crashLoop(`shard ${String(shard.id)} died ${String(CRASH_LIMIT)} times within a minute`);
    }
  });
}

/** The exit code of the shard's process, once it exits (null when it was not running). */
function exitOf(shard: Shard): Promise<number | null> {
  const child = shard.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child?.exitCode ?? null);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
