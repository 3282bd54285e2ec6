import type { LogLevel } from './config.ts';

export type Logger = Record<LogLevel, (message: string) => void>;

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Console logger that drops messages below `threshold`; warn and error go to stderr. `who` names the process among several (`shard 1`). */
export function createLogger(threshold: LogLevel, who?: string): Logger {
  const tag = who === undefined ? '' : ` [${who}]`;
  const at =
    (level: LogLevel, write: (line: string) => void) =>
    (message: string): void => {
      if (RANK[level] >= RANK[threshold]) write(`[${level}]${tag} ${message}`);
    };
  return {
    debug: at('debug', console.log),
    info: at('info', console.log),
    warn: at('warn', console.error),
    error: at('error', console.error),
  };
}
