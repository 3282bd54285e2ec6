import type { LlmConfig } from '../../src/config.ts';
import { loadConfig } from '../../src/config.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { flagsOrRefusal, usage, type Flag, type Refusal } from '../cli.ts';
import { parseSeats, SEATS_HELP, unconfigured, type ArenaEntry } from './arena-seats.ts';
import { starterPersonas } from './demo-personas.ts';

const COMMAND = 'npm run arena';
const SUMMARY = 'Plays all-AI games of personas and models, each moved round the table, and rates them per persona and per model.';
const FLAGS = {
  games: { kind: 'int', default: 20, min: 1, max: 10_000, help: 'Games to play.' },
  seats: { kind: 'text', help: SEATS_HELP },
  seed: { kind: 'int', default: 1, min: 0, max: 2 ** 31 - 1, help: 'The first deal; the same seed and seats play the same games offline.' },
  json: {
    kind: 'text',
    help: 'Also write the figures to this JSON file (townWinRate, ratings.personas[] and ratings.models[] with name, mu, sigma).',
  },
} satisfies Record<string, Flag>;

/** A mistake in how the arena was called, and then how to call it. */
export function withUsage(message: string): string {
  return `${message}\n\n${usage(COMMAND, SUMMARY, FLAGS)}`;
}

/** What `npm run arena` plays. */
interface ArenaArgs {
  readonly entries: ArenaEntry[];
  readonly games: number;
  readonly seed: number;
  readonly json: string | undefined;
  readonly env: LlmConfig;
}

/**
 * The arena's flags and seats read from `args` and `environment` (the process's, .env loaded), in
 * the order the script checks them, or what it prints instead: a function, so a test reads bad
 * arguments without starting a process.
 */
export async function readArenaArgs(
  args: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): Promise<Result<ArenaArgs, Refusal>> {
  const mistake = (message: string) => err({ kind: 'mistake' as const, text: withUsage(message) });
  const flags = flagsOrRefusal(COMMAND, SUMMARY, FLAGS, args);
  if (!flags.ok) return flags;
  const loaded = loadConfig(environment);
  if (!loaded.ok) return mistake(loaded.error);
  const env = loaded.value.llm;
  if (flags.value.seats === undefined) return mistake('--seats is required.');
  const entries = parseSeats(flags.value.seats, await starterPersonas(), env);
  if (!entries.ok) return mistake(entries.error);
  const missing = unconfigured(entries.value, env);
  if (missing.length > 0) {
    return err({
      kind: 'mistake',
      text: `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not configured: set ${missing.map((p) => (p === 'openai' ? 'OPENAI_API_KEY or OPENAI_BASE_URL' : 'ANTHROPIC_API_KEY')).join(', ')} in .env, or seat offline entries.`,
    });
  }
  const { games, seed, json } = flags.value;
  return ok({ entries: entries.value, games, seed, json, env });
}
