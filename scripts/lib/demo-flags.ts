import { MAX_PRESET_PLAYERS, MIN_PRESET_PLAYERS } from '../../src/game/index.ts';
import { flagsOrRefusal } from '../cli.ts';

/** `npm run demo`'s flags from its arguments, or what it prints instead: a function, so a test reads bad ones without a process. */
export function demoFlags(args: readonly string[]) {
  return flagsOrRefusal(
    'npm run demo',
    "Plays one all-AI game with the starter personas and prints it, then the director's cut.",
    {
      ai: { kind: 'choice', default: 'offline', choices: ['offline', 'openai', 'anthropic'], help: 'Who plays the seats.' },
      players: { kind: 'int', default: 7, min: MIN_PRESET_PLAYERS, max: MAX_PRESET_PLAYERS, help: 'Seats at the table.' },
      seed: { kind: 'int', default: 42, min: 0, max: 2 ** 31 - 1, help: 'The same seed plays the same game.' },
      out: { kind: 'text', help: "A directory to write the game's report files to (the director's cut and its attachments)." },
    },
    args,
  );
}
