import type { GameState } from '../game/index.ts';
import { directorsCutFile } from './markdown.ts';
import { replayFile } from './replay-html.ts';

/** One file of a finished game's report: posted in the director's cut, written by `npm run demo -- --out DIR`. */
export interface ReportFile {
  readonly name: string;
  readonly data: Buffer;
}

/**
 * Everything a finished game leaves behind for its players, in the order it is shown: the
 * Markdown director's cut first, then the HTML replay. Null while the game runs: the report shows
 * what play must never show.
 */
export async function gameReport(state: GameState, title: string): Promise<ReportFile[] | null> {
  const markdown = directorsCutFile(state, title);
  const replay = await replayFile(state, title);
  if (!markdown || !replay) return null;
  return [markdown, replay].map((file) => ({ name: file.name, data: Buffer.from(file.content, 'utf8') }));
}
