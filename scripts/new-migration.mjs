#!/usr/bin/env node
// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the schema changes since the
// newest committed migration. `prisma migrate dev` cannot do it here: the JS schema engine
// replays old migrations into a PGlite shadow database through prepared statements, which
// refuse multi-statement SQL. So the diff is taken between two datamodels instead: the schema
// as of the commit that added the newest migration, and the schema now.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:new-migration -- <name_in_snake_case>');
  process.exit(2);
}
const rev = execFileSync('git', ['log', '-n', '1', '--format=%H', '--', 'prisma/migrations'], { encoding: 'utf8' }).trim();
if (!rev) {
  console.error('no committed migration to diff against');
  process.exit(1);
}
const before = join(mkdtempSync(join(tmpdir(), 'dramatis-schema-')), 'schema.prisma');
writeFileSync(before, execFileSync('git', ['show', `${rev}:prisma/schema.prisma`], { encoding: 'utf8' }));
const diff = spawnSync(
  process.execPath,
  ['scripts/prisma.mjs', 'migrate', 'diff', '--from-schema-datamodel', before, '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (diff.status !== 0) process.exit(diff.status ?? 1);
const sql = diff.stdout.replace(/^Loaded Prisma config.*\n/m, '').trim();
if (!sql || /^-- This is an empty migration\.?$/.test(sql)) {
  console.log('The schema has not changed since the newest migration: nothing to write.');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = join('prisma', 'migrations', `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'migration.sql'), `${sql}\n`);
console.log(`wrote ${join(dir, 'migration.sql')}; commit it together with prisma/schema.prisma`);
