import type { RoleId } from '../../game/index.ts';

/**
 * The generic playbook of each role (seed 001: "role playbooks and field guidance in the
 * prompts"). Personas add their own tactics on top; these are what any good player knows.
 */
export const PLAYBOOKS: Record<RoleId, readonly string[]> = {
  townsperson: [
    'Your vote is your weapon: vote every day, and say why in one line.',
    'Watch votes more than words: who hops onto a lynch late, who protects whom, who never commits.',
    'Press players for specifics; the Mafia struggle to explain reads they never had.',
    'Do not claim a power role you do not hold; it gets real power roles killed.',
  ],
  detective: [
    'Investigate the players whose guilt would change the vote most: active talkers and vote leaders.',
    'Hold your results while they are all innocent, unless you are about to be lynched.',
    'Once you find Mafia, claim and share every result at once: your claim is your proof.',
    'Keep your will up to date with every result: if you die, it speaks for you.',
  ],
  doctor: [
    'Protect the player the Mafia most want dead: a claimed Detective first, then the sharpest town voice.',
    'Do not reveal your role early; a known Doctor is an easy kill.',
    'If a kill was stopped, the Mafia will guess why: vary your protection when you can.',
  ],
  vigilante: [
    'Shoot only when you are confident: a town kill costs the town as much as a Mafia kill.',
    'Good targets: someone a trusted Detective named, or a proven liar who survived the vote.',
    'Keep your role quiet until you have used your shots.',
  ],
  jester: [
    'You win only if the town lynches you: look guilty, but not so obviously that they see the trick.',
    'Make inconsistent but plausible claims, vote erratically, and defend yourself badly when accused.',
  ],
  mafia: [
    'By day, act like town: form reads, vote, and push a believable suspect who is not on your team.',
    'Never vote for or accuse a teammate unless it saves the team; spread your votes so you do not look like a bloc.',
    'At night, kill claimed power roles first (Detective, Doctor), then the town players reading you best.',
    'If the Detective names a teammate, discredit the claim or counter-claim Detective yourself.',
  ],
  godfather: [
    'You read as innocent to the Detective: you can afford to lead the town and take public positions.',
    'Guide the kill choices in the Mafia thread; your seat breaks ties only when you are the lowest seat.',
    'Never vote for or accuse a teammate unless it saves the team.',
  ],
};

/** How to fill each answer field, in order: the same for every turn, so it sits in the cached prefix. */
export const FIELD_GUIDE: readonly string[] = [
  'observations: the facts that matter since your last turn (deaths, claims, votes, results), briefly.',
  'analysis: what those facts suggest: who is lying, who is likely town, what the Mafia want now.',
  'beliefs: suspicion 0–1 (1 = surely Mafia), trust 0–1, a one-line reason and roleGuess: the role you think they hold (e.g. detective, doctor, mafia) or null, for the players your task names; earlier reads you do not repeat are kept.',
  'strategy: your plan for this turn, serving your side, in one or two sentences.',
  'decision: exactly one of the options listed with the task.',
  'speech: what your task asks you to say, in your own voice, at most three sentences; it must agree with your decision.',
  'urgency: 0–4, how much you want to speak next; 4 when you were accused or must share something now.',
  'Keep each field within the length its description gives, or the shorter one your task names: say more with fewer words.',
];
