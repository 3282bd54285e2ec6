import { z } from 'zod';
import { DATABASE_URL_EXPECTED, parseDatabaseUrl, type DatabaseTarget } from './db/database-url.ts';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  database: DatabaseTarget;
  logLevel: LogLevel;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; error: string };

// One schema for every setting: add a key here (and to .env.example and the README).
// Messages never echo values, because later settings are secrets.
const EnvSchema = z
  .object({
    DATABASE_URL: z
      .string()
      .optional()
      .transform((raw, ctx): DatabaseTarget => {
        const target = parseDatabaseUrl(raw);
        if (target !== null) return target;
        ctx.addIssue({ code: 'custom', message: `expected ${DATABASE_URL_EXPECTED}` });
        return z.NEVER;
      }),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  })
  .transform(
    (env): Config => ({
      database: env.DATABASE_URL,
      logLevel: env.LOG_LEVEL,
    }),
  );

/** Reads settings from an environment (process.env in the app, a literal in tests). */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): ConfigResult {
  // `KEY=` in a .env file means "not set", not "set to the empty string".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (parsed.success) return { ok: true, config: parsed.data };
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  return { ok: false, error: `Invalid configuration:\n  ${problems.join('\n  ')}` };
}
