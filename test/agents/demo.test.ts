import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function demo(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], { encoding: 'utf8' });
}

describe('npm run demo', () => {
  it('GIVEN a seed WHEN the demo runs twice THEN the transcript is the same byte for byte, with a winner and the director’s cut', () => {
    const first = demo('--players', '7', '--seed', '42');
    expect(demo('--players', '7', '--seed', '42')).toBe(first);
    expect(first).toMatch(/🏆 The (Town|Mafia) win!|draw/);
    expect(first).toContain("# Director's cut");
    expect(first).toMatch(/Tally: /);
    expect(first.match(/^## /gm)).toHaveLength(7);
  });

  it('GIVEN a bad player count WHEN the demo runs THEN it says what is allowed', () => {
    expect(() => demo('--players', '40')).toThrow(/--players must be a whole number from 5 to 16/);
  });
});
