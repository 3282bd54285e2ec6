import type { GameState } from '../game/index.ts';
import { rasterise } from './rasterise.ts';
import type { Scene } from './scene.ts';
import { suspicionMapScene } from './suspicion-map.ts';
import { sceneToSvg } from './svg.ts';
import { voteFlowScene } from './vote-flow.ts';

/**
 * A finished game's pictures as PNG files: who voted for whom each day, and (when AI seats kept
 * suspicions) how each AI seat read the table. None for a game that never reached its first night.
 */
export async function gamePictures(state: GameState, title: string): Promise<{ name: string; data: Buffer }[]> {
  const scenes: [string, Scene | null][] = [
    [`vote-flow-${state.id}.png`, voteFlowScene(state, title)],
    [`suspicion-${state.id}.png`, suspicionMapScene(state, title)],
  ];
  const drawn = scenes.flatMap(([name, scene]) => (scene ? [{ name, scene }] : []));
  return Promise.all(drawn.map(async ({ name, scene }) => ({ name, data: await rasterise(sceneToSvg(scene)) })));
}
