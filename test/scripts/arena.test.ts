import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LlmConfig } from '../../src/config.ts';
import type { GameState } from '../../src/game/index.ts';
import { createProvider } from '../../src/llm/providers.ts';
import { beliefAccuracy, bySide, type SeatRead } from '../../src/report/belief-accuracy.ts';
import { NEW_RATING } from '../../src/report/ratings.ts';
import { runArena } from '../../scripts/lib/arena.ts';
import { readArenaArgs } from '../../scripts/lib/arena-args.ts';
import { parseSeats, type ArenaEntry } from '../../scripts/lib/arena-seats.ts';
import { arenaReport } from '../../scripts/lib/arena-table.ts';
import { starterPersonas } from '../../scripts/lib/demo-personas.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';
import type { FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { playingModel } from '../../scripts/fakes/llm/playing-model.ts';

const OFFLINE: LlmConfig = {
  provider: 'offline',
  openai: { apiKey: undefined, baseURL: undefined, model: 'gpt-4.1-mini' },
  anthropic: { apiKey: undefined, baseURL: undefined, model: 'claude-haiku-4-5' },
  timeoutMs: 30_000,
  maxToolRounds: 4,
  dailyTokenBudget: 0,
};

const COLUMNS = ['games', 'Town won', 'Mafia won', 'skill (μ ± σ)', 'Town Brier (uniform)', 'fallback', 'tokens/game', '$/game'];

async function seats(spec: string, env = OFFLINE): Promise<ArenaEntry[]> {
  const parsed = parseSeats(spec, await starterPersonas(), env);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** The rows of the table headed by `first` in a report, each split into its columns. */
function rowsOf(report: string, first: 'persona' | 'model'): string[][] {
  const lines = report.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${first} `));
  const header = lines[start]!;
  expect(COLUMNS.every((c) => header.includes(c))).toBe(true);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '') break;
    rows.push(line.split(/ {2,}/));
  }
  return rows;
}

describe('arena seats', () => {
  it('GIVEN personas, models and both together WHEN read THEN each seat has its persona row, its model row and what plays it', async () => {
    const entries = await seats(
      'offline, sherlock-holmes, Miss Marple@openai, niccolo-machiavelli@anthropic:claude-x, openai:gpt-5, sherlock-holmes',
    );
    expect(entries.map((e) => [e.name, e.persona, e.model])).toEqual([
      ['Ada', 'Ada (house)', 'offline'],
      ['Sherlock Holmes', 'Sherlock Holmes', 'offline'],
      ['Miss Marple', 'Miss Marple', 'openai:gpt-4.1-mini'],
      ['Niccolò Machiavelli', 'Niccolò Machiavelli', 'anthropic:claude-x'],
      ['Basil', 'Basil (house)', 'openai:gpt-5'],
      ['Sherlock Holmes 2', 'Sherlock Holmes', 'offline'],
    ]);
  });

  it.each([
    ['offline,offline,offline,offline', /needs 5–16 seats \(got 4\)/],
    ['offline,offline,,offline,offline', /an empty seat/],
    ['offline,offline,offline,offline,moriarty', /no starter persona "moriarty" \(there are cleopatra, hercule-poirot/],
    ['offline,offline,offline,offline,cleopatra@gpt', /"gpt" is not a model/],
    ['offline,offline,offline,offline,offline:fast', /offline takes no model name/],
    ['offline,offline,offline,offline,openai:', /a model name must follow the colon/],
  ])('GIVEN --seats %j WHEN read THEN what is wrong, in plain words', async (spec, message) => {
    const parsed = parseSeats(spec, await starterPersonas(), OFFLINE);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('the arena offline', () => {
  it('GIVEN five offline entries WHEN five games are played THEN every entry played every seat of one deal once, and the tables count it', async () => {
    const entries = await seats('offline,offline,sherlock-holmes,miss-marple,cleopatra');
    const played: GameState[] = [];
    const result = await runArena({ entries, games: 5, seed: 3, env: OFFLINE, providers: () => null, onGame: (_, s) => played.push(s) });
    const report = arenaReport(result);
    expect(report.split('\n')[0]).toMatch(/^Arena: 5 all-AI games of 5 seats, seed 3 \(each run of 5 games/);

    const personas = rowsOf(report, 'persona');
    expect(personas.map((r) => r[0]).sort()).toEqual(['Ada (house)', 'Basil (house)', 'Cleopatra', 'Miss Marple', 'Sherlock Holmes']);
    const townWins = result.outcomes['town win'] ?? 0;
    const mafiaWins = result.outcomes['mafia win'] ?? 0;
    expect(townWins + mafiaWins).toBe(5);
    const won = (cell: string | undefined) => Number(/^(\d+)\//.exec(cell ?? '')?.[1]);
    for (const row of personas) {
      expect(row).toHaveLength(9);
      expect(row[1]).toBe('5');
      // One deal, rotated: each entry sat in every seat once, so it played the one Mafia seat once.
      expect(row[2]).toMatch(/^[0-4]\/4 \d+ %$/);
      expect(row[3]).toMatch(/^[01]\/1 (0|100) %$/);
      expect(row[4]).toMatch(/^-?\d+\.\d \(\d+\.\d ± \d+\.\d\)$/);
      expect(row[5]).toMatch(/^0\.\d{3} \(0\.\d{3}\)$/);
      expect(row.slice(6)).toEqual(['0.0 %', '0', '$0.000']);
    }
    // Four Town seats and one Mafia seat a game.
    expect(personas.reduce((n, r) => n + won(r[2]), 0)).toBe(townWins * 4);
    expect(personas.reduce((n, r) => n + won(r[3]), 0)).toBe(mafiaWins);
    expect(rowsOf(report, 'model')).toEqual([
      [
        'offline',
        '25',
        `${townWins * 4}/20 ${Math.round((townWins / 5) * 100)} %`,
        `${mafiaWins}/5 ${Math.round((mafiaWins / 5) * 100)} %`,
        expect.any(String),
        expect.any(String),
        '0.0 %',
        '0',
        '$0.000',
      ],
    ]);
    // The Brier column counts the Town seats' days only: a Mafia seat's reads are an act.
    const reads = played.flatMap((s) => beliefAccuracy(s) ?? []);
    const days = (side: readonly SeatRead[]) => side.reduce((n, r) => n + r.days.length, 0);
    expect(result.byModel[0]!.brier.days).toBe(days(bySide(reads).town));
    expect(days(bySide(reads).mafia)).toBeGreaterThan(0);
    expect(report).toContain('Town Brier: mean over its Town seat-days');
  });
});

describe('ratings in the arena', () => {
  it('GIVEN seven seats that all play the offline brain WHEN 100 games are played THEN the mean μ of the seven stays at 25, whichever side won more', async () => {
    const entries = await seats('offline,offline,sherlock-holmes,miss-marple,hercule-poirot,cleopatra,niccolo-machiavelli');
    const result = await runArena({ entries, games: 100, seed: 1, env: OFFLINE, providers: () => null });
    expect(result.byPersona).toHaveLength(7);
    // One side won more (the rule this replaced let every rating sink with a run of Mafia wins).
    expect(result.outcomes['town win']).not.toBe(50);
    const mean = result.byPersona.reduce((sum, row) => sum + row.rating.mu, 0) / result.byPersona.length;
    // The rule conserves the seats' μ every game, so this is 25 to rounding, well inside the ± 1 asked.
    expect(mean).toBeCloseTo(25, 6);
    for (const row of result.byPersona) expect(row.rating.sigma).toBeLessThan(NEW_RATING.sigma);
  });
});

describe('the arena against a model', () => {
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('GIVEN one seat on an OpenAI model (the wire fake) among offline seats WHEN two games are played THEN its row counts its own calls, tokens and dollars, with no fallback', async () => {
    fake = await startFakeOpenAi(playingModel());
    const env: LlmConfig = { ...OFFLINE, openai: { apiKey: 'test-key', baseURL: fake.baseURL, model: 'gpt-4.1-mini' } };
    const entries = await seats('offline,offline,offline,offline,sherlock-holmes@openai', env);
    const client = createProvider('openai', env);
    if (!client.ok) throw new Error(client.error);
    const result = await runArena({ entries, games: 2, seed: 5, env, providers: (name) => (name === 'openai' ? client.value : null) });

    const model = result.byModel.find((r) => r.key === 'openai:gpt-4.1-mini')!;
    expect(model.games).toBe(2);
    expect(model.calls.length).toBe(fake.requests.length);
    expect(model.calls.length).toBeGreaterThan(0);
    expect(model.fallbacks).toBe(0);
    expect(model.decisions).toBeGreaterThanOrEqual(model.calls.length);
    expect(model.tokens).toBe(model.calls.reduce((n, c) => n + c.usage.inputTokens + c.usage.outputTokens, 0));
    const row = rowsOf(arenaReport(result), 'model').find((r) => r[0] === 'openai:gpt-4.1-mini')!;
    expect(row[6]).toBe('0.0 %');
    expect(row[7]).toBe(`${Math.round(model.tokens / 2)}`);
    expect(row[8]).toMatch(/^\$0\.\d{3}$/);
    expect(row[8]).not.toBe('$0.000');
    // The offline seats made no calls.
    expect(result.byModel.find((r) => r.key === 'offline')!.calls).toEqual([]);
  });
});

const exited = z.object({ code: z.number(), stdout: z.string(), stderr: z.string() });

/** The environment without model settings: the script sees only what the test gives it. */
const modelFree = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC|LLM)_/.test(k)));

async function arena(...args: string[]) {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/arena.ts', ...args], {
    cwd: process.cwd(),
    env: modelFree(),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => exited.parse(error),
  );
}

describe('npm run arena', () => {
  it('GIVEN five offline seats and --json WHEN run for five games THEN it prints both tables and Town’s win rate, and writes the win rate and every rating to the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dramatis-arena-'));
    try {
      const file = join(dir, 'arena.json');
      const run = await arena('--games', '5', '--seats', 'offline,offline,offline,cleopatra,oscar-wilde', '--json', file);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Arena: 5 all-AI games of 5 seats/);
      expect(rowsOf(run.stdout, 'persona')).toHaveLength(5);
      expect(rowsOf(run.stdout, 'model').map((r) => r[0])).toEqual(['offline']);
      const rated = z.object({ name: z.string(), mu: z.number(), sigma: z.number() });
      const figures = z
        .object({ townWinRate: z.number(), ratings: z.object({ personas: z.array(rated), models: z.array(rated) }) })
        .parse(JSON.parse(await readFile(file, 'utf8')));
      const townWins = Number(/town win (\d+)/.exec(run.stdout)?.[1] ?? 0);
      expect(figures.townWinRate).toBe(townWins / 5);
      expect(run.stdout).toContain(`Town won ${((townWins / 5) * 100).toFixed(1)} % of the games`);
      expect(figures.ratings.personas.map((p) => p.name).sort()).toEqual(
        rowsOf(run.stdout, 'persona')
          .map((r) => r[0])
          .sort(),
      );
      expect(figures.ratings.models.map((m) => m.name)).toEqual(['offline']);
      const mean = figures.ratings.personas.reduce((sum, p) => sum + p.mu, 0) / 5;
      expect(mean).toBeCloseTo(25, 6);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('GIVEN no flags WHEN run THEN it says --seats is required and how to call it, on stderr with no stack, exits 2, and plays nothing', async () => {
    const run = await arena();
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--seats is required');
    expect(run.stderr).toContain('Usage: npm run arena');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

// What the script prints to stderr before it exits 2, read in this process (the exit itself is tested above).
describe('the arena’s arguments', () => {
  it.each([
    [[]],
    [['--seats', 'offline,offline']],
    [['--games', '0', '--seats', 'offline,offline,offline,offline,offline']],
    [['--seats', 'offline,offline,offline,offline,openai']],
  ])('GIVEN %j WHEN read THEN they are refused as a mistake saying what is wrong (and how to call it)', async (args) => {
    const read = await readArenaArgs(args, modelFree());
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error.kind).toBe('mistake');
    expect(read.error.text).toMatch(/--seats is required|needs 5–16 seats|--games must be a whole number|openai is not configured/);
    if (!args.join(' ').includes('openai')) expect(read.error.text).toContain('Usage: npm run arena');
    expect(read.error.text).not.toMatch(/\n\s+at /);
  });
});
