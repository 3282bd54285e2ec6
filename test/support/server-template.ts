import pg from 'pg';
import { applyMigrationSql } from '../../src/db/apply-migration-sql.ts';

/** A migrated PostgreSQL database that test files copy (`CREATE DATABASE … TEMPLATE`), on the TEST_DATABASE_URL server. */
export interface ServerTemplate {
  /** TEST_DATABASE_URL itself: the connection that creates and drops the copies. */
  readonly adminUrl: string;
  readonly template: string;
  /** Copies are named this prefix and their file's name, so teardown finds every one. */
  readonly copyPrefix: string;
  /** The schema the tables live in; every URL handed to the bot names it (`?schema=`), so that path is tested too. */
  readonly schema: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverTemplate: ServerTemplate | null;
  }
}

const SCHEMA = 'dramatis';

/** Null when no server is configured (the PostgreSQL suites then skip, or fail in CI: see test/db/test-databases.ts). */
export async function buildServerTemplate(): Promise<ServerTemplate | null> {
  const adminUrl = process.env.TEST_DATABASE_URL?.trim();
  if (!adminUrl) return null;
  const base = new URL(adminUrl).pathname.slice(1) || 'postgres';
  const template: ServerTemplate = { adminUrl, template: `${base}__template`, copyPrefix: `${base}__`, schema: SCHEMA };
  await withClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ rolcreatedb: boolean }>('SELECT rolcreatedb FROM pg_roles WHERE rolname = current_user');
    if (rows[0]?.rolcreatedb !== true) {
      throw new Error(
        'TEST_DATABASE_URL names a role that cannot create databases, and the tests copy a template database: ALTER ROLE … CREATEDB (docs/testing.md)',
      );
    }
    await dropCopies(admin, template);
    await admin.query(`CREATE DATABASE ${quote(template.template)}`);
  });
  await withClient(urlOf(template, template.template), async (db) => {
    await db.query(`CREATE SCHEMA ${SCHEMA}; SET search_path TO ${SCHEMA};`);
    await applyMigrationSql((sql) => db.query(sql));
  });
  return template;
}

/** A fresh copy of the template for one test file (or one group of processes): its URL, schema included. */
export async function copyServerTemplate(template: ServerTemplate, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad test database name ${name}`);
  const copy = `${template.copyPrefix}${name}`;
  await withClient(template.adminUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${quote(copy)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${quote(copy)} TEMPLATE ${quote(template.template)}`);
  });
  const url = new URL(urlOf(template, copy));
  url.searchParams.set('schema', template.schema);
  return url.toString();
}

export async function dropServerCopies(template: ServerTemplate): Promise<void> {
  await withClient(template.adminUrl, (admin) => dropCopies(admin, template));
}

/** The template and every copy, left by this run or by one that was killed. */
async function dropCopies(admin: pg.Client, template: ServerTemplate): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND NOT datistemplate',
    [template.copyPrefix],
  );
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
}

function urlOf(template: ServerTemplate, database: string): string {
  const url = new URL(template.adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
