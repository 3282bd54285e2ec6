/** The director's-cut pictures of offline all-AI games: how long both take to draw, and how big they come out. */
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { HOUSE_PLAYERS } from '../src/agents/seats.ts';
import { gamePictures } from '../src/report/pictures.ts';
import { playHeadless } from '../src/session/headless-game.ts';

export interface PictureFigures {
  readonly players: number;
  readonly days: number;
  /** Median wall time to draw both pictures (scenes, SVG, PNG), over the runs. */
  readonly medianMs: number;
  readonly files: readonly { readonly name: string; readonly kib: number; readonly height: number }[];
}

const RUNS = 5;

export async function benchPictures(players: number, seed = 42): Promise<PictureFigures> {
  const seats = HOUSE_PLAYERS.slice(0, players).map((voice, i) => ({
    id: `s${i + 1}`,
    name: voice.name,
    brain: heuristicBrain(voice),
    offline: heuristicBrain(voice),
  }));
  const played = await playHeadless({ gameId: `pictures-${players}`, seed, seats });
  if (!played.ok) throw new Error(played.error);
  const state = played.value;
  let files = await gamePictures(state, '#bench'); // the first run loads the fonts
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    files = await gamePictures(state, '#bench');
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    players,
    days: state.day,
    medianMs: times[Math.floor(RUNS / 2)] ?? Number.NaN,
    // A PNG's height is the second word of its IHDR chunk, 20 bytes in.
    files: files.map((f) => ({ name: f.name, kib: f.data.length / 1024, height: f.data.readUInt32BE(20) })),
  };
}
