import { parseArgs } from 'node:util';
import { err, ok, type Result } from '../src/result.ts';

/** One flag of a script: a whole number in bounds, one of some words, or free text. */
export type Flag =
  | { kind: 'int'; default: number; min: number; max: number; help: string }
  | { kind: 'choice'; default: string; choices: readonly string[]; help: string }
  | { kind: 'text'; help: string };

type Value<F extends Flag> = F extends { kind: 'int' }
  ? number
  : F extends { kind: 'choice'; choices: readonly (infer C)[] }
    ? C
    : string | undefined;
export type Flags<S extends Record<string, Flag>> = { [K in keyof S]: Value<S[K]> };

/** The usage text: the command, then each flag with its default and bounds. */
export function usage(command: string, summary: string, spec: Record<string, Flag>): string {
  const lines = [`Usage: ${command} [-- flags]`, '', summary, '', 'Flags:'];
  for (const [name, flag] of Object.entries(spec)) {
    const detail =
      flag.kind === 'int'
        ? ` (${flag.min}–${flag.max}, default ${flag.default})`
        : flag.kind === 'choice'
          ? ` (${flag.choices.join(' | ')}, default ${flag.default})`
          : '';
    lines.push(`  --${name} ${flag.kind === 'int' ? 'N' : 'VALUE'}`.padEnd(24) + flag.help + detail);
  }
  lines.push(`  --help`.padEnd(24) + 'This text.');
  return lines.join('\n');
}

/** Reads the flags, or says why not; `--help` is an answer of its own. */
export function readFlags<const S extends Record<string, Flag>>(
  spec: S,
  args: readonly string[],
): Result<Flags<S>, { kind: 'help' } | { kind: 'mistake'; message: string }> {
  const options: Record<string, { type: 'string' } | { type: 'boolean'; short: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const name of Object.keys(spec)) options[name] = { type: 'string' };
  // `--seed -1` is a value, not a flag: parseArgs would call it ambiguous and never show the number.
  const joined = args.map((arg, i) => (/^-\d/.test(arg) && /^--\w+$/.test(args[i - 1] ?? '') ? null : arg));
  const normalised = joined.flatMap((arg, i) => (arg === null ? [] : joined[i + 1] === null ? [`${arg}=${args[i + 1] ?? ''}`] : [arg]));
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: normalised, options, allowPositionals: false, strict: true }));
  } catch (error) {
    // parseArgs says which flag is unknown or lacks its value; its message is written for people.
    return err({ kind: 'mistake', message: error instanceof Error ? error.message : String(error) });
  }
  if (values.help === true) return err({ kind: 'help' });
  const flags: Record<string, number | string | undefined> = {};
  for (const [name, flag] of Object.entries(spec)) {
    const raw = values[name];
    const text = typeof raw === 'string' ? raw : undefined;
    if (flag.kind === 'text') {
      flags[name] = text;
    } else if (flag.kind === 'choice') {
      if (text !== undefined && !flag.choices.includes(text)) {
        return err({ kind: 'mistake', message: `--${name} must be one of ${flag.choices.join(', ')} (got ${text}).` });
      }
      flags[name] = text ?? flag.default;
    } else {
      const n = text === undefined ? flag.default : Number(text);
      if (!Number.isInteger(n) || n < flag.min || n > flag.max) {
        return err({ kind: 'mistake', message: `--${name} must be a whole number from ${flag.min} to ${flag.max} (got ${text ?? ''}).` });
      }
      flags[name] = n;
    }
  }
  return ok(flags as Flags<S>);
}

/** What a script prints instead of running: its usage for `--help`, or the mistake followed by its usage. */
export interface Refusal {
  readonly kind: 'help' | 'mistake';
  readonly text: string;
}

/** The flags, or what to print instead (and so how to exit): flagsOrExit without the printing and exiting, for tests. */
export function flagsOrRefusal<const S extends Record<string, Flag>>(
  command: string,
  summary: string,
  spec: S,
  args: readonly string[],
): Result<Flags<S>, Refusal> {
  const read = readFlags(spec, args);
  if (read.ok) return read;
  const text = usage(command, summary, spec);
  return err(read.error.kind === 'help' ? { kind: 'help', text } : { kind: 'mistake', text: `${read.error.message}\n\n${text}` });
}

/** For a script's top level: the flags, or the usage printed and the process ended (0 for --help, 2 for a mistake). */
export function flagsOrExit<const S extends Record<string, Flag>>(command: string, summary: string, spec: S): Flags<S> {
  const read = flagsOrRefusal(command, summary, spec, process.argv.slice(2));
  if (read.ok) return read.value;
  exitRefused(read.error);
}

/** Prints a refusal where it belongs and exits: 0 after the usage asked for, 2 after a mistake. */
export function exitRefused(refusal: Refusal): never {
  if (refusal.kind === 'help') {
    console.log(refusal.text);
    process.exit(0);
  }
  console.error(refusal.text);
  process.exit(2);
}
