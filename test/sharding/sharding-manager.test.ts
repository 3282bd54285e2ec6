/** `npm start` with SHARDS=auto: discord.js's ShardingManager runs each shard as its own process, starts a dead one again, and stops them all on SIGTERM. */
import { afterEach, expect, it } from 'vitest';
import { startDiscordSim } from '../../scripts/fakes/discord/index.ts';
import { describeSharded, kill, sharedDatabase, startBot, until } from './shard-processes.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How often a line appears in the output. */
const count = (text: string, line: string) => text.split(line).length - 1;

describeSharded('the sharding manager (SHARDS=auto)', () => {
  it('GIVEN Discord recommends 2 shards WHEN the bot starts with SHARDS=auto THEN each shard runs in its own process; WHEN shard 1 is killed THEN the manager starts it again; WHEN the manager gets SIGTERM THEN every shard shuts down and it exits 0', async () => {
    const { url, db } = await sharedDatabase('sharding_manager');
    cleanups.push(() => db.close());
    const sim = await startDiscordSim({ recommendedShards: 2 });
    cleanups.push(() => sim.close());
    const manager = startBot(sim, { SHARDS: 'auto', DATABASE_URL: url });
    cleanups.push(() => kill(manager));
    await until(
      () =>
        manager.output().includes('[shard 0] serving shard(s) 0 of 2') && manager.output().includes('[shard 1] serving shard(s) 1 of 2'),
      'both shards serve',
      [manager],
    );
    expect(manager.output()).toContain('[manager] running shards 0, 1 of 2, one process each');
    const pid = /shard 1 started \(process (\d+)\)/.exec(manager.output())?.[1];
    expect(pid).toBeDefined();

    process.kill(Number(pid), 'SIGKILL');
    await until(() => count(manager.output(), '[shard 1] serving shard(s) 1 of 2') === 2, 'shard 1 serves again', [manager]);
    expect(manager.output()).toContain('shard 1 died (exit code null); starting it again');

    manager.child.kill('SIGTERM');
    expect(await manager.exited).toBe(0);
    expect(manager.output()).toContain('[shard 0] SIGTERM: shutting down');
    expect(manager.output()).toContain('[shard 1] SIGTERM: shutting down');
    expect(manager.output()).not.toContain('did not stop cleanly');
  }, 120_000);
});
