#!/usr/bin/env node
// Runs the local Prisma CLI offline: `node scripts/prisma.mjs <prisma args>`.
import 'dotenv/config';
import { spawn } from 'node:child_process';
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

// Prisma 6 requires `url` in schema.prisma and then warns, on every command, that a driver
// adapter makes it unused; with PGlite that is the design, so the warning is left out.
const UNUSED_URL_WARNING =
  /\n?WARNING: Your schema specifies the following datasource properties but you are using a Driver Adapter[\s\S]*?if you are only using driver adapters\.\n?/;

const child = spawn(process.execPath, [cli, ...args], { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] });
const relay = (from, to) => {
  let held = '';
  from.setEncoding('utf8');
  // Held back only while a warning may still be arriving, so live output stays live.
  from.on('data', (chunk) => {
    held = (held + chunk).replace(UNUSED_URL_WARNING, '\n');
    const cut = held.lastIndexOf('WARNING: Your schema specifies');
    const safe = cut === -1 ? held : held.slice(0, cut);
    to.write(safe);
    held = held.slice(safe.length);
  });
  from.on('end', () => to.write(held));
};
relay(child.stdout, process.stdout);
relay(child.stderr, process.stderr);
child.on('error', (error) => {
  console.error(`scripts/prisma.mjs: could not run the Prisma CLI: ${error.message}`);
  process.exit(1);
});
child.on('close', (code) => process.exit(code ?? 1));
