import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readFlags, type Flag } from '../../scripts/cli.ts';
import { demoFlags } from '../../scripts/lib/demo-flags.ts';

const SPEC = {
  ai: { kind: 'choice', default: 'offline', choices: ['offline', 'openai'], help: 'Who plays.' },
  seed: { kind: 'int', default: 42, min: 0, max: 1000, help: 'Seed.' },
  json: { kind: 'text', help: 'File.' },
} satisfies Record<string, Flag>;

const exited = z.object({ code: z.number(), stdout: z.string(), stderr: z.string() });

async function demo(...args: string[]) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], { cwd: process.cwd() }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => exited.parse(error),
  );
}

describe('script flags', () => {
  it('GIVEN no flags WHEN read THEN the defaults', () => {
    expect(readFlags(SPEC, [])).toEqual({ ok: true, value: { ai: 'offline', seed: 42, json: undefined } });
  });

  it('GIVEN good flags in both spellings WHEN read THEN their values, a negative-looking number included', () => {
    expect(readFlags(SPEC, ['--ai', 'openai', '--seed=7', '--json', 'out.json'])).toEqual({
      ok: true,
      value: { ai: 'openai', seed: 7, json: 'out.json' },
    });
    expect(readFlags({ n: { kind: 'int', default: 0, min: -5, max: 5, help: 'n' } }, ['--n', '-3'])).toEqual({
      ok: true,
      value: { n: -3 },
    });
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--seed'], /'--seed <value>' argument missing/],
    [['--seed', '-1'], /--seed must be a whole number from 0 to 1000 \(got -1\)/],
    [['--seed', '2.5'], /--seed must be a whole number from 0 to 1000 \(got 2.5\)/],
    [['--seed', 'x'], /--seed must be a whole number/],
    [['--ai', 'gpt'], /--ai must be one of offline, openai \(got gpt\)/],
    [['extra'], /Unexpected argument 'extra'/],
  ])('GIVEN %j WHEN read THEN a mistake named in plain words', (args, message) => {
    const read = readFlags(SPEC, args);
    expect(read.ok).toBe(false);
    if (!read.ok && read.error.kind === 'mistake') expect(read.error.message).toMatch(message);
    else expect.fail('expected a mistake');
  });

  it('GIVEN --help or -h WHEN read THEN help is asked for', () => {
    expect(readFlags(SPEC, ['--help'])).toEqual({ ok: false, error: { kind: 'help' } });
    expect(readFlags(SPEC, ['-h', '--seed', '3'])).toEqual({ ok: false, error: { kind: 'help' } });
  });

  it('GIVEN the demo WHEN run with --help THEN it prints its usage and exits 0 without playing', async () => {
    const run = await demo('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run demo/);
    expect(run.stdout).toContain('--seed N');
    expect(run.stdout).not.toContain('Dramatis demo');
  });

  it('GIVEN the demo WHEN run with a bad flag THEN it says what is wrong and how to call it, exits 2, and shows no stack trace', async () => {
    const run = await demo('--seed', '-1');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--seed must be a whole number');
    expect(run.stderr).toContain('Usage: npm run demo');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  // What the demo prints to stderr before it exits 2 (the exit itself is tested above), read in this process.
  it.each([['--unknown'], ['--seed'], ['--seed', '-1']])(
    'GIVEN the demo’s flags %j WHEN read THEN a mistake that says what is wrong and how to call it',
    (...args) => {
      const read = demoFlags(args);
      expect(read.ok).toBe(false);
      if (read.ok) return;
      expect(read.error.kind).toBe('mistake');
      expect(read.error.text).toContain('Usage: npm run demo');
      expect(read.error.text).not.toMatch(/\n\s+at /);
    },
  );
});
