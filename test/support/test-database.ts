import { openAsBlob } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { prismaOn, type Database } from '../../src/db/open-database.ts';
import { ThreadedPGlite } from '../../src/db/threaded-pglite.ts';
import type { PgliteTemplatePaths } from './pglite-templates.ts';

type Template = keyof PgliteTemplatePaths;

/** A copy of a template, and how to put its rows back as the template has them. */
interface Copy {
  readonly pglite: ThreadedPGlite;
  readonly restore: () => Promise<void>;
}

/**
 * Copies closed by their tests, their rows already put back, for the next test of this worker
 * (which runs its files one after another in one process): loading a copy costs over a second of
 * CPU, putting the rows back hundredths. A copy whose test left a query running is closed instead.
 */
const idle = new Map<Template, Copy[]>();
/**
 * One idle copy of each template a worker: a copy holds about 300 MB, and tests open their
 * databases one after another (a test that adds a second world gets the idle copy).
 */
const IDLE_PER_TEMPLATE = 1;

/**
 * A fresh in-memory database as the run's template has it (test/support/global-setup.ts):
 * `migrated` is empty, `withStarters` holds the starter pack as a booted bot's database does.
 * It is a copy nobody else uses until it is closed; then its rows go back to the template's.
 */
export async function openTestDatabase(template: Template): Promise<Database> {
  const copy = idle.get(template)?.pop() ?? (await loadCopy(template));
  const lease = leased(copy.pglite);
  const prisma = prismaOn(lease.pglite);
  const release = async () => {
    await prisma.$disconnect();
    if (lease.end() && !copy.pglite.closed) {
      const kept = await copy.restore().then(
        () => true,
        () => false,
      );
      const list = idle.get(template) ?? [];
      if (kept && list.length < IDLE_PER_TEMPLATE) {
        list.push(copy);
        idle.set(template, list);
        return;
      }
    }
    if (!copy.pglite.closed) await copy.pglite.close();
  };
  // Closed once: a second close must neither hand the copy out twice nor close it under its next test.
  let closed: Promise<void> | undefined;
  const lost = copy.pglite.lost.then((cause) => cause.message);
  return { prisma, lost, close: () => (closed ??= release()) };
}

async function loadCopy(template: Template): Promise<Copy> {
  const pglite = new ThreadedPGlite({ dataDir: null, loadDataDir: inject('pgliteTemplates')[template] });
  await pglite.waitReady;
  return { pglite, restore: await restorer(pglite) };
}

/**
 * What puts `pglite`'s rows back to what they are now: every table emptied and refilled in the
 * order it was read (the order a fresh copy scans them in), and every sequence reset. Foreign keys
 * are not checked meanwhile (the rows were consistent when read).
 */
async function restorer(pglite: ThreadedPGlite): Promise<() => Promise<void>> {
  const tables = await pglite.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  const rows: { table: string; json: string }[] = [];
  for (const { name } of tables.rows) {
    const read = await pglite.query<{ json: string | null }>(`SELECT json_agg(t)::text AS json FROM ${name} t`);
    const json = read.rows[0]?.json;
    if (json) rows.push({ table: name, json });
  }
  const sequences = await pglite.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences WHERE schemaname = 'public'`,
  );
  const positions: { name: string; value: string; called: boolean }[] = [];
  for (const { name } of sequences.rows) {
    const at = await pglite.query<{ value: string; called: boolean }>(`SELECT last_value::text AS value, is_called AS called FROM ${name}`);
    positions.push({ name, ...at.rows[0]! });
  }
  const empty = tables.rows.map(({ name }) => `DELETE FROM ${name};`).join('\n');
  return async () => {
    await pglite.transaction(async (tx) => {
      await tx.exec(`SET LOCAL session_replication_role = replica;\n${empty}`);
      for (const { table, json } of rows)
        await tx.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [json]);
      for (const { name, value, called } of positions) await tx.query('SELECT setval($1, $2::bigint, $3)', [name, value, called]);
    });
  };
}

/**
 * `pglite` for one test database: what it runs goes through until the lease ends, and fails after
 * (a stray query of a closed test must not reach the next test's rows). `end` says whether nothing
 * was still running, so the copy can be reused.
 */
function leased(pglite: ThreadedPGlite): { pglite: ThreadedPGlite; end: () => boolean } {
  let open = true;
  let running = 0;
  const through =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!open) throw new Error('this test database was closed');
      running++;
      try {
        return await run(...args);
      } finally {
        running--;
      }
    };
  const guarded = {
    query: through(pglite.query.bind(pglite)),
    exec: through(pglite.exec.bind(pglite)),
    transaction: through(pglite.transaction.bind(pglite)),
  };
  const proxy = new Proxy(pglite, {
    get: (target, key) => {
      if (key in guarded) return guarded[key as keyof typeof guarded];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    pglite: proxy,
    end: () => {
      open = false;
      return running === 0;
    },
  };
}

/**
 * A PGlite data directory holding a copy of the run's template, for a bot process started with
 * MIGRATE_ON_START=false: its tests are about what happens after the migrations, which
 * test/db/pglite-directory.test.ts runs through the Prisma CLI.
 */
export async function pgliteDirectoryFromTemplate(dataDir: string, template: Template): Promise<void> {
  const db = new PGlite(dataDir, { loadDataDir: await openAsBlob(inject('pgliteTemplates')[template]) });
  await db.waitReady;
  await db.close();
}
