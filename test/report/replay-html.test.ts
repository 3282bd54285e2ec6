import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gameReport } from '../../src/report/files.ts';
import { embedJson, replayFile } from '../../src/report/replay-html.ts';
import { replayModel, ReplayModelSchema } from '../../src/report/replay-model.ts';
import { TestGame } from '../support/test-game.ts';
import { CLOSING_NAME, finishedGame, HOSTILE_NAME, withTools } from './finished-game.ts';

/** The bound the issue sets for a 16-player game's replay. */
const ONE_MB = 1_000_000;

const between = (html: string, open: string, close: string): string => {
  const start = html.indexOf(open);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start + open.length, html.indexOf(close, start + open.length));
};

async function page(state: Parameters<typeof replayFile>[0]): Promise<string> {
  const file = await replayFile(state, 'Test table');
  if (!file) throw new Error('no replay for a game that has not ended');
  return file.content;
}

describe('the HTML replay file', () => {
  it('GIVEN a finished 16-player all-AI game WHEN its replay is written THEN it is one file under 1 MB', async () => {
    const state = await finishedGame(16, 3);
    const file = await replayFile(state, 'Sixteen');
    const bytes = Buffer.byteLength(file!.content, 'utf8');
    expect(file!.name).toBe(`replay-${state.id}.html`);
    expect(bytes, `the 16-player replay is ${bytes} bytes`).toBeLessThanOrEqual(ONE_MB);
  });

  it('GIVEN names and speech written to break out of the page WHEN embedded THEN they stay inert data that reads back as the model', async () => {
    const state = await finishedGame(8, 5, { 0: { name: HOSTILE_NAME, brain: withTools }, 1: { name: CLOSING_NAME } });
    const html = await page(state);
    // Only the page's own two scripts: the hostile text closes and opens none.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain(HOSTILE_NAME);
    const data = between(html, '<script type="application/json" id="replay-data">', '</script>');
    expect(data).not.toContain('<');
    const model = ReplayModelSchema.parse(JSON.parse(data));
    expect(model).toEqual(replayModel(state, 'Test table'));
    expect(model.players.slice(0, 2).map((p) => p.name)).toEqual([HOSTILE_NAME, CLOSING_NAME]);
  });

  it('GIVEN text with line and paragraph separators WHEN embedded THEN they are spelled out and read back the same', () => {
    const text = 'a\u2028b\u2029c</script><!--';
    const json = embedJson({ text });
    expect(json).not.toMatch(/[\u2028\u2029<]/);
    expect(JSON.parse(json)).toEqual({ text });
  });

  it('GIVEN the page WHEN opened THEN it may run only its own script and style and fetch nothing', async () => {
    const html = await page(await finishedGame(7, 1));
    const policy = between(html, '<meta http-equiv="Content-Security-Policy" content="', '"');
    const script = between(html, '<script>', '</script>');
    const style = between(html, '<style>', '</style>');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src ${hash(script)}`);
    expect(policy).toContain(`style-src ${hash(style)}`);
    expect(html).not.toMatch(/\b(src|href)=|@import|url\(/i);
  });

  it("GIVEN a game still running WHEN its report is asked for THEN there is none; once ended it holds the director's cut and the replay", async () => {
    const running = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'townsperson']).state;
    expect(await replayFile(running, 'x')).toBeNull();
    expect(await gameReport(running, 'x')).toBeNull();
    const ended = await finishedGame(7, 1);
    const files = await gameReport(ended, 'Seven');
    expect(files?.map((f) => f.name).slice(0, 2)).toEqual([`directors-cut-${ended.id}.md`, `replay-${ended.id}.html`]);
    expect(files?.[1]?.data.toString('utf8')).toMatch(/^<!doctype html>/);
  });
});
