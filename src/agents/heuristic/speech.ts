import type { Rng } from '../../game/index.ts';
import type { Voice } from '../decision.ts';

/** Fills a template and, now and then, lends it the persona's signature phrase. */
export function say(rng: Rng, voice: Voice | undefined, options: readonly string[]): string {
  const line = rng.pick(options);
  if (!voice || voice.phrases.length === 0 || !rng.chance(0.35)) return line;
  const phrase = rng.pick(voice.phrases);
  return rng.chance(0.5) ? `${phrase} ${line}` : `${line} ${phrase}`;
}

export const lines = {
  opener: [
    'Nothing to go on yet, so I am watching who pushes hardest for an early lynch.',
    'First day. Let us hear everyone before anyone gets comfortable.',
    'Quiet players worry me more than loud ones. Speak up, all of you.',
  ],
  suspect: (name: string, why: string) => [
    `I suspect ${name}: ${why}.`,
    `${name} is my top read for Mafia right now: ${why}.`,
    `My vote is heading to ${name} unless someone changes my mind: ${why}.`,
  ],
  gut: (name: string) => [
    `I have a bad feeling about ${name}. Nothing solid yet, just a feeling.`,
    `${name} has been too comfortable so far. I am watching you, ${name}.`,
    `If I had to vote right now it would be ${name}. Convince me otherwise.`,
  ],
  standByResults: (name: string) => [`I stand by my results. Vote ${name}.`, `You heard me: ${name} is Mafia. Vote ${name}.`],
  followDetective: (detective: string, target: string) => [
    `I believe ${detective}. ${target} is Mafia; vote ${target}.`,
    `${detective} has put their role on the line. That is enough for me: lynch ${target}.`,
  ],
  detectiveClaim: (results: string) => [`I'm the Detective. ${results}`],
  mafiaDeflect: (name: string) => [
    `Something about ${name} does not add up. I suspect ${name}.`,
    `${name} has been steering the conversation. Suspicious.`,
    `I'd look at ${name}; their votes have not matched their words.`,
  ],
  jester: (name: string) => [
    `I know, I know, I look guilty. Vote me if you must, but ${name} is quieter than I am.`,
    `Go ahead and suspect me. Meanwhile ${name} is getting a free ride.`,
  ],
  /** Said aloud with a vote; every line names only the player voted. */
  vote: (name: string) => [`I vote ${name}.`, `My vote goes to ${name}.`, `Voting ${name}.`, `${name}. That is my vote.`],
  keptVote: (name: string) => [`As I said: I vote ${name}.`, `I said ${name}, and I meant it. I vote ${name}.`],
  /** `change` is the public change, said as a clause: "Bob's claim changes that". */
  changedVote: (said: string, change: string, name: string) => [`I said ${said}, but ${change}: I vote ${name}.`],
  changedMind: (said: string, change: string): [string] => [`I said ${said}, but ${change}.`],
  stillPledged: (name: string): [string] => [`I still say ${name}. My vote is heading to ${name}.`],
  noLynch: ['No lynch from me today.', 'I will not hang anyone on this little. No lynch.'],
  /** Last words of a Mafia member whose role the table has just seen. */
  mafiaUnmasked: (role: string, teamLeft: boolean) =>
    teamLeft
      ? [
          `${role}, yes. You caught one of us. Sleep well, if you can.`,
          `Fine. ${role}. Enjoy the win while it lasts; the nights are not over.`,
          `Well played. ${role} it is. You will not find the rest so easily.`,
        ]
      : [`${role}, yes. Well played, all of you.`, `You got me. ${role}. A fair game, fairly lost.`],
  proposeKill: (name: string) => [`I say we take out ${name} tonight.`, `${name}. They are getting too close.`],
  holdKill: ['Let us hold off tonight.'],
};
