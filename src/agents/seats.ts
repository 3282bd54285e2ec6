import { isMafia } from '../game/index.ts';
import type { Brain, Voice } from './decision.ts';
import { heuristicBrain } from './heuristic/brain.ts';

/** Stand-in names and voices for all-AI games until personas fill the seats. */
export const HOUSE_PLAYERS: readonly Voice[] = [
  { name: 'Ada', phrases: ['Numbers do not lie.'] },
  { name: 'Basil', phrases: ['Steady on.'] },
  { name: 'Cleo', phrases: ['Darling, please.'] },
  { name: 'Dante', phrases: ['Abandon hope.'] },
  { name: 'Edith', phrases: ['Non, je ne regrette rien.'] },
  { name: 'Felix', phrases: ['Lucky me.'] },
  { name: 'Greta', phrases: ['I want to be alone.'] },
  { name: 'Hugo', phrases: ['Miserable business.'] },
  { name: 'Iris', phrases: ['Look closer.'] },
  { name: 'Jules', phrases: ['Twenty thousand leagues of nonsense.'] },
  { name: 'Kira', phrases: ['Watch the hands, not the mouth.'] },
  { name: 'Leon', phrases: ['No women, no kids.'] },
  { name: 'Mabel', phrases: ['Well I never.'] },
  { name: 'Nico', phrases: ['Trust the tape.'] },
  { name: 'Opal', phrases: ['Shiny, but cracked.'] },
  { name: 'Percy', phrases: ['Jolly good.'] },
];

/** A brain that plays Mafia seats one way and everyone else another (e.g. to compare town strategies). */
export function splitBrain(mafia: Brain, others: Brain): Brain {
  return (req, rng) => (isMafia(req.view.me.role) ? mafia : others)(req, rng);
}

/** Seats played by offline brains only (the brain is its own stand-in). */
export function houseSeats(count: number, brainFor: (voice: Voice) => Brain = heuristicBrain) {
  if (count > HOUSE_PLAYERS.length) throw new Error(`at most ${HOUSE_PLAYERS.length} house players`);
  return HOUSE_PLAYERS.slice(0, count).map((voice, i) => {
    const brain = brainFor(voice);
    return { id: `seat${i + 1}`, name: voice.name, brain, offline: brain };
  });
}
