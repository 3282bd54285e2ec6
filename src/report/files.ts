import type { GameState } from '../game/index.ts';
import { directorsCutFile } from './markdown.ts';
import { gamePictures } from './pictures.ts';

/** One file of a finished game's report: posted in the director's cut, written by `npm run demo -- --out DIR`. */
export interface ReportFile {
  readonly name: string;
  readonly data: Buffer;
}

/**
 * Everything a finished game leaves behind for its players, in the order it is shown: the
 * Markdown director's cut first, then the pictures (vote flow, suspicion heatmap). Null while the game runs: the report shows what play must never show.
 */
export async function gameReport(state: GameState, title: string): Promise<ReportFile[] | null> {
  const markdown = directorsCutFile(state, title);
  if (!markdown) return null;
  const files: ReportFile[] = [{ name: markdown.name, data: Buffer.from(markdown.content, 'utf8') }];
  files.push(...(await gamePictures(state, title)));
  return files;
}
