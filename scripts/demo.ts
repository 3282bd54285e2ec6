/** Plays one all-AI game with the offline brain and prints it, then the director's cut. */
import { playGame } from '../src/agents/table.ts';
import { directorsCut } from '../src/agents/directors-cut.ts';
import { houseSeats } from '../src/agents/seats.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { MAX_PRESET_PLAYERS, MIN_PRESET_PLAYERS, narrate } from '../src/game/index.ts';
import { intFlags } from './args.ts';

const { players, seed } = intFlags(
  { players: 7, seed: 42 },
  { players: [MIN_PRESET_PLAYERS, MAX_PRESET_PLAYERS], seed: [0, 2 ** 31 - 1] },
);

const result = await playGame({
  gameId: `demo-${seed}`,
  seed,
  seats: houseSeats(players, (voice) => heuristicBrain(voice)),
  startAt: Date.UTC(2026, 0, 1),
  voting: 'sequential',
});
if (!result.ok) {
  console.error(`The demo could not start: ${result.error}`);
  process.exit(1);
}
const { state } = result;

const lines = [`# Dramatis demo — ${players} players, seed ${seed}`, ''];
for (const event of state.log) {
  if (event.visibility.kind !== 'public' || event.type === 'player_joined') continue;
  const line = narrate(state, event);
  if (line) lines.push(line);
}
lines.push('', "# Director's cut", ...directorsCut(state));
process.stdout.write(lines.join('\n') + '\n');
