#!/usr/bin/env node
// Runs the local Prisma CLI offline: `node scripts/prisma.mjs <prisma args>`.
import 'dotenv/config';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const cli = require.resolve('prisma/build/index.js');
const args = process.argv.slice(2);

// The query engine is never used (generator engineType "client"), and neither is the
// schema engine binary for PGlite (prisma.config.ts picks the JS schema engine).
// Pointing them at any existing, non-executable file stops the CLI from downloading.
// Migrating a PostgreSQL server goes through the classic engine, which needs the
// real binary: leave that variable alone there so Prisma fetches it where it can.
const placeholder = require.resolve('prisma/package.json');
const migratesServer = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? '') && ['migrate', 'db'].includes(args[0] ?? '');
const env = { ...process.env };
env.PRISMA_QUERY_ENGINE_LIBRARY ??= placeholder;
if (!migratesServer) env.PRISMA_SCHEMA_ENGINE_BINARY ??= placeholder;

const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, stdio: 'inherit' });
if (result.error !== undefined) {
  console.error(`scripts/prisma.mjs: could not run the Prisma CLI: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
