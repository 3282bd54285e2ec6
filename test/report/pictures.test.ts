import { inflateSync } from 'node:zlib';
import extractChunks from 'png-chunks-extract';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { gameReport } from '../../src/report/files.ts';
import { gamePictures } from '../../src/report/pictures.ts';
import { PICTURE_WIDTH } from '../../src/report/picture.ts';
import { suspicionMapScene } from '../../src/report/suspicion-map.ts';
import { voteFlowScene } from '../../src/report/vote-flow.ts';
import { TestGame } from '../support/test-game.ts';
import { scriptedGame } from './games.ts';

/** Width and height from the IHDR chunk, after checking every chunk's CRC and that the pixels inflate to a full RGBA image. */
function decodePng(data: Buffer): { width: number; height: number } {
  const chunks = extractChunks(data);
  const header = Buffer.from(chunks[0]!.data);
  expect(chunks[0]!.name).toBe('IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([header[8], header[9]]).toEqual([8, 6]); // 8 bits per channel, RGBA
  const pixels = inflateSync(Buffer.concat(chunks.filter((c) => c.name === 'IDAT').map((c) => c.data)));
  expect(pixels.length).toBe(height * (1 + width * 4));
  expect(chunks.at(-1)!.name).toBe('IEND');
  return { width, height };
}

describe("a finished game's pictures", () => {
  it('GIVEN a finished game of people and AI seats WHEN its report is made THEN it holds the Markdown, the replay, then the vote flow and the suspicion heatmap as PNGs of the scenes’ size', async () => {
    const { t } = scriptedGame();
    const files = (await gameReport(t.state, '#game'))!;
    expect(files.map((f) => f.name)).toEqual(['directors-cut-test.md', 'replay-test.html', 'vote-flow-test.png', 'suspicion-test.png']);
    const scenes = [voteFlowScene(t.state, '#game')!, suspicionMapScene(t.state, '#game')!];
    files.slice(2).forEach((file, i) => {
      expect(decodePng(file.data)).toEqual({ width: PICTURE_WIDTH, height: scenes[i]!.height });
    });
  });

  it('GIVEN the same finished game WHEN drawn twice THEN the PNGs are the same bytes', async () => {
    const { t } = scriptedGame();
    const [first, second] = [await gamePictures(t.state, '#game'), await gamePictures(t.state, '#game')];
    expect(first).toHaveLength(2);
    first.forEach((file, i) => expect(file.data.equals(second[i]!.data)).toBe(true));
  });

  it('GIVEN a game of people only WHEN its report is made THEN it has the vote flow but no heatmap (no seat kept suspicions)', async () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson', 'townsperson']);
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    t.advanceTo('vote');
    t.must(t.vote(t.by('townsperson', 1), t.by('mafia')));
    t.must(t.vote(t.by('townsperson', 2), t.by('mafia')));
    t.must(t.vote(t.by('mafia'), t.by('townsperson', 1)));
    expect(t.state.phase).toBe('ended');
    const files = (await gameReport(t.state, '#game'))!;
    expect(files.map((f) => f.name)).toEqual(['directors-cut-test.md', 'replay-test.html', 'vote-flow-test.png']);
  });

  it('GIVEN a game cancelled in the lobby WHEN its report is made THEN it is the Markdown alone', async () => {
    const t = TestGame.lobby(5);
    t.must(engine.cancel(t.state, { by: null, reason: 'no one came', at: t.at }));
    const files = (await gameReport(t.state, '#game'))!;
    expect(files.map((f) => f.name)).toEqual(['directors-cut-test.md']);
  });
});
