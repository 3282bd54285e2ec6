import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { urgently } from '../../src/db/db-priority.ts';
import { openDatabase } from '../../src/db/open-database.ts';
import { ThreadedPGlite } from '../../src/db/threaded-pglite.ts';

const INT8 = 20;

describe('embedded PGlite on a thread of its own', () => {
  const db = new ThreadedPGlite({ dataDir: null, loadDataDir: null });
  afterAll(() => db.close());

  it('GIVEN a statement that runs long WHEN it runs THEN the bot thread keeps turning meanwhile', async () => {
    let turns = 0;
    let running = true;
    const count = (): void => {
      turns++;
      if (running) setImmediate(count);
    };
    const long = db.query('SELECT count(*) FROM generate_series(1, 1000000)').finally(() => (running = false));
    setImmediate(count);

    await long;

    // In the bot's thread, PGlite would run the whole statement inside one turn.
    expect(turns).toBeGreaterThan(10);
  });

  it('GIVEN background queries queued WHEN a query a person waits on is asked THEN it runs before them, the rest in the order asked', async () => {
    await db.waitReady;
    const done: string[] = [];
    const ask = (name: string) => db.query(`SELECT '${name}' AS name`).then(() => void done.push(name));

    const background = ['b1', 'b2', 'b3', 'b4'].map(ask);
    const urgent = urgently(() => ask('person'));
    await Promise.all([...background, urgent]);

    expect(done).toEqual(['b1', 'person', 'b2', 'b3', 'b4']);
  });

  it("GIVEN the caller's parsers WHEN rows come back THEN they read the values of their types and nulls stay null", async () => {
    const parsers = { [INT8]: (text: string) => `parsed ${text}` };

    const arrays = await db.query('SELECT 7::int8 AS a, NULL::int8 AS b, 3::int4 AS c', [], { rowMode: 'array', parsers });
    const objects = await db.query('SELECT 7::int8 AS a', [], { parsers });

    expect(arrays.rows).toEqual([['parsed 7', null, 3]]);
    expect(objects.rows).toEqual([{ a: 'parsed 7' }]);
  });

  it('GIVEN transactions WHEN one returns, one throws and one rolls back THEN only the first is kept', async () => {
    await db.exec('CREATE TABLE kept (name text)');

    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO kept VALUES ('committed')`);
    });
    const thrown = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO kept VALUES ('thrown')`);
      throw new Error('changed its mind');
    });
    await expect(thrown).rejects.toThrow('changed its mind');
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO kept VALUES ('rolled back')`);
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });

    expect((await db.query('SELECT name FROM kept')).rows).toEqual([{ name: 'committed' }]);
  });

  it("GIVEN a statement Postgres refuses WHEN it fails THEN the caller gets PGlite's DatabaseError with Postgres' fields, and the database goes on", async () => {
    await db.exec('CREATE TABLE once (id int PRIMARY KEY)');
    await db.query('INSERT INTO once VALUES (1)');

    const failure = await db.query('INSERT INTO once VALUES (1)').catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(messages.DatabaseError);
    expect(failure).toMatchObject({ code: '23505', constraint: 'once_pkey', table: 'once' });
    expect((await db.query('SELECT count(*)::int AS n FROM once')).rows).toEqual([{ n: 1 }]);
  });

  it('GIVEN a closed database WHEN asked again THEN it refuses at once, and closing is no loss', async () => {
    const other = new ThreadedPGlite({ dataDir: null, loadDataDir: null });
    await other.query('SELECT 1');
    let lost = false;
    void other.lost.then(() => (lost = true));

    await other.close();
    await new Promise((resolve) => setImmediate(resolve));

    expect(other.closed).toBe(true);
    expect(lost).toBe(false);
    await expect(other.query('SELECT 1')).rejects.toThrow('closed');
  });
});

describe('opening the embedded database on its thread', () => {
  it('GIVEN a dump that cannot be read WHEN the database is asked THEN it fails with the reason, and so does what comes after', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'pglite-dump-')), 'missing.tar');
    const db = new ThreadedPGlite({ dataDir: null, loadDataDir: missing });
    let lost = false;
    void db.lost.then(() => (lost = true));

    await expect(db.query('SELECT 1')).rejects.toThrow('missing.tar');
    await expect(db.query('SELECT 1')).rejects.toThrow('missing.tar');
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.closed).toBe(true);
    // It never opened, so nothing was lost: the bot refuses to start instead.
    expect(lost).toBe(false);
    await db.close();
  });

  it('GIVEN an open database WHEN its thread dies THEN what waits fails, what comes after fails, and the loss is told once', async () => {
    let thread: Worker | undefined;
    const db = new ThreadedPGlite({ dataDir: null, loadDataDir: null }, (start) => {
      thread = new Worker(new URL('../../src/db/pglite-thread.mjs', import.meta.url), { workerData: start });
      return thread;
    });
    await db.query('SELECT 1');
    const waiting = db.query('SELECT count(*) FROM generate_series(1, 1000000)');

    await thread?.terminate();

    await expect(waiting).rejects.toThrow('the PGlite thread exited');
    await expect(db.query('SELECT 1')).rejects.toThrow('the PGlite thread exited');
    expect((await db.lost).message).toContain('the PGlite thread exited');
    expect(db.closed).toBe(true);
  });

  it('GIVEN the in-memory database WHEN the bot opens it THEN Prisma reads and writes through the thread', async () => {
    const opened = await openDatabase({ database: { kind: 'memory' } });
    if (!opened.ok) throw new Error(opened.error);
    const { prisma } = opened.value;

    const rows = await prisma.$queryRawUnsafe<{ big: bigint; at: Date; doc: unknown }[]>(
      'SELECT 9007199254740993::int8 AS big, now() AS at, $1::jsonb AS doc',
      JSON.stringify({ seat: 3 }),
    );
    await opened.value.close();

    expect(rows).toEqual([{ big: 9007199254740993n, at: expect.any(Date) as Date, doc: { seat: 3 } }]);
  });
});
