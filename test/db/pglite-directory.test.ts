import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployMigrations } from '../../src/db/deploy-migrations.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import { openDatabase, type Database } from '../../src/db/open-database.ts';

// Spawning the real Prisma CLI boots PGlite in a child process: slow (tens of seconds on a busy
// machine, within the suite's timeout) but it is exactly what `npm start` and `npm run db:migrate` do.

describe('a PGlite data directory', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'dramatis-pglite-')), 'db');
  });
  afterAll(async () => {
    await rm(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('GIVEN an empty directory WHEN prisma migrate deploy runs through the wrapper THEN it succeeds', async () => {
    expect(await deployMigrations({ kind: 'pglite', dataDir }, 'capture')).toEqual({ ok: true, value: undefined });
  });

  it('GIVEN a migrated directory WHEN a game is written, closed and reopened THEN the game is still there', async () => {
    const target = { kind: 'pglite', dataDir } as const;
    const first = await open(target);
    await createGameStore(first.prisma).createGame({
      id: 'persisted',
      guildId: null,
      channelId: 'channel-9',
      hostId: null,
      seed: 9,
      settings: { note: 'survives a restart' },
    });
    await first.close();

    const second = await open(target);
    try {
      expect(await createGameStore(second.prisma).getGame('persisted')).toMatchObject({
        channelId: 'channel-9',
        settings: { note: 'survives a restart' },
      });
    } finally {
      await second.close();
    }
  });

  it('GIVEN an up-to-date directory WHEN migrate deploy runs again THEN it exits cleanly instead of hanging', async () => {
    // Guards the PGlite timer workaround in src/db/pglite-for-cli.ts.
    expect(await deployMigrations({ kind: 'pglite', dataDir }, 'capture')).toEqual({ ok: true, value: undefined });
  });
});

async function open(database: { kind: 'pglite'; dataDir: string }): Promise<Database> {
  const opened = await openDatabase({ database });
  if (!opened.ok) throw new Error(opened.error);
  return opened.value;
}
