import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { err, ok, type Result } from '../result.ts';

/** The file in a PGlite directory that says which bot process has it open. */
const LOCK_FILE = 'dramatis-bot.lock';

const Holder = z.object({ pid: z.number().int(), host: z.string(), since: z.string() });
type Holder = z.infer<typeof Holder>;

export interface DirectoryLock {
  release(): void;
}

/** Directories this process holds: a second open here is refused like one from another process. */
const held = new Set<string>();

/**
 * One bot per PGlite directory: PGlite itself does not lock, and two processes writing one
 * directory corrupt it. Kept hand-written (issue 28 weighed proper-lockfile 4.1.2, the maintained
 * one) for what that library cannot do:
 * - name the holder: its lock is an empty directory, so a refusal could not say which process
 *   (PID, host, since when) to stop;
 * - let the next start in at once after a kill -9: it knows a lock is stale only by its mtime,
 *   at least 2 s old (10 s by default), so a bot restarted by a supervisor would be refused or
 *   wait; here the holder's PID is gone, so its lock is taken over at once;
 * - hold without a timer: it keeps the mtime fresh every few seconds and, when an update comes
 *   late (an event loop busy longer than the stale time), calls the lock compromised and by
 *   default throws out of that timer, ending the bot.
 */
export function lockDirectory(dataDir: string): Result<DirectoryLock, string> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  if (held.has(dir)) return err(`The database directory ${dir} is already open in this process.`);
  const mine: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  // Twice at most: a stale lock is removed once; if someone else wins the race, theirs stands.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, text, { flag: 'wx' });
      held.add(dir);
      const release = () => {
        process.off('exit', release);
        held.delete(dir);
        try {
          if (readFileSync(path, 'utf8') === text) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
      // A crash or process.exit still frees the directory.
      process.on('exit', release);
      return ok({ release });
    } catch (error) {
      if (!isCode(error, 'EEXIST')) return err(`cannot lock the database directory ${dir}: ${String(error)}`);
    }
    const holder = readHolder(path);
    if (holder && holds(holder)) {
      return err(
        `The database directory ${dir} is in use by another Dramatis bot (process ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
          'Only one bot may use a database: stop that one first' +
          (holder.host === mine.host ? ` (kill ${holder.pid}).` : `, or delete ${path} if it is no longer running.`),
      );
    }
    try {
      unlinkSync(path);
    } catch (error) {
      if (!isCode(error, 'ENOENT')) return err(`cannot take over the stale lock ${path}: ${String(error)}`);
    }
  }
  return err(`The database directory ${dir} was locked by another process starting at the same moment; try again.`);
}

function readHolder(path: string): Holder | null {
  try {
    const parsed = Holder.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the holder still runs. On another host we cannot tell, so it counts as running. */
function holds(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  // Our own PID in an old lock: a container restarted with the same PID, not a second bot.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return isCode(error, 'EPERM');
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
