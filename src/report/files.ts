import type { GameState } from '../game/index.ts';
import { directorsCutFile } from './markdown.ts';
import { gamePictures } from './pictures.ts';
import { replayFile } from './replay-html.ts';

/** One file of a finished game's report: posted in the director's cut, written by `npm run demo -- --out DIR`. */
export interface ReportFile {
  readonly name: string;
  readonly data: Buffer;
}

/**
 * Everything a finished game leaves behind for its players, in the order it is shown: the
 * Markdown director's cut, the HTML replay, then the pictures (vote flow, suspicion heatmap); a
 * game called off in the lobby leaves the Markdown alone. Null while the game runs: the report
 * shows what play must never show.
 */
export async function gameReport(state: GameState, title: string): Promise<ReportFile[] | null> {
  const markdown = directorsCutFile(state, title);
  if (!markdown) return null;
  const text = (file: { name: string; content: string }): ReportFile => ({ name: file.name, data: Buffer.from(file.content, 'utf8') });
  // A game called off in the lobby has nothing to replay or draw.
  if (!state.log.some((e) => e.type === 'game_started')) return [text(markdown)];
  const replay = await replayFile(state, title);
  return [text(markdown), ...(replay ? [text(replay)] : []), ...(await gamePictures(state, title))];
}
