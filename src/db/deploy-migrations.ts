import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../result.ts';
import type { DatabaseTarget } from '../database-url.ts';

const PRISMA_WRAPPER = fileURLToPath(new URL('../../scripts/prisma.mjs', import.meta.url));

export type MigratableTarget = Exclude<DatabaseTarget, { kind: 'memory' }>;

/**
 * Runs `prisma migrate deploy` (through scripts/prisma.mjs) against the target.
 * `inherit` shows Prisma's output live; `capture` keeps it for the error message.
 */
export function deployMigrations(target: MigratableTarget, output: 'inherit' | 'capture' = 'inherit'): Promise<Result<void, string>> {
  // The CLI runs from the project root, so hand it an absolute directory.
  const databaseUrl = target.kind === 'pglite' ? resolve(target.dataDir) : target.url;
  const child = spawn(process.execPath, [PRISMA_WRAPPER, 'migrate', 'deploy'], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  let captured = '';
  child.stdout?.on('data', (chunk: Buffer) => (captured += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (captured += chunk.toString()));
  return new Promise((done) => {
    child.on('error', (error) => done(err(`cannot run prisma migrate deploy: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) {
        done(ok(undefined));
        return;
      }
      const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
      done(err(`prisma migrate deploy failed (${how})${captured === '' ? '' : `:\n${captured.trim()}`}`));
    });
  });
}
