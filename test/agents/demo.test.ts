import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../src/models.ts';
import { demoTranscript, offlineSeats, playDemo } from '../../scripts/lib/demo-game.ts';
import { demoPersonas } from '../../scripts/lib/demo-personas.ts';
import { demoFlags } from '../../scripts/lib/demo-flags.ts';

function demo(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], { encoding: 'utf8' });
}

describe('npm run demo', () => {
  // One run of the demo, which every test below reads: each child run costs seconds of start-up.
  let out: string;
  let transcript: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'dramatis-demo-'));
    transcript = demo('--players', '7', '--seed', '42', '--out', out);
  });
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('GIVEN a seed WHEN the demo runs THEN it prints the game with a winner and the director’s cut, the same byte for byte as the same seed played in another process', async () => {
    expect(transcript).toMatch(/🏆 The (Town|Mafia) win!|draw/);
    expect(transcript).toContain("# Director's cut");
    expect(transcript).toMatch(/Tally: /);
    expect(transcript.match(/^## /gm)).toHaveLength(7);
    const again = await playDemo({ seed: 42, seats: offlineSeats(await demoPersonas(7)) });
    if (!again.ok) throw new Error(again.error);
    expect(demoTranscript(again.value, 7, 42).join('\n') + '\n').toBe(transcript);
  });

  it('GIVEN the starter personas WHEN the demo runs THEN they are the players', () => {
    for (const name of ['Cleopatra', 'Hercule Poirot', 'Oscar Wilde']) expect(transcript).toContain(`## ${name} — `);
  });

  it("GIVEN --out DIR WHEN the demo runs THEN the director's cut and the HTML replay are written there", async () => {
    expect(await readdir(out)).toEqual(expect.arrayContaining(['directors-cut-demo-42.md', 'replay-demo-42.html']));
    const replay = await readFile(join(out, 'replay-demo-42.html'), 'utf8');
    expect(replay).toMatch(/^<!doctype html>/);
    expect(replay).toContain('Hercule Poirot');
  });

  it('GIVEN --ai openai and a server that is not there WHEN the demo starts THEN it says so at once and plays nothing', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--ai', 'openai'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_API_KEY: 'k',
        LLM_PROVIDER: 'openai',
        DOTENV_CONFIG_PATH: '/dev/null',
      },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`The openai model ${DEFAULT_MODELS.openai} at http://127.0.0.1:9/v1 did not answer (network)`);
    expect(run.stdout).toBe('');
  });

  // Read in this process: the exit on a bad flag has its own test (test/scripts/cli.test.ts).
  it('GIVEN a bad player count WHEN the demo reads it THEN it says what is allowed', () => {
    const read = demoFlags(['--players', '40']);
    expect(read.ok ? 'played' : read.error.text).toMatch(/--players must be a whole number from 5 to 16/);
  });
});
