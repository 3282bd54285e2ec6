import type { CardExtras } from '../../src/persona/card-extras.ts';
import type { Arc, Part, Trait } from '../../src/persona/composition.ts';
import type { PersonaContent } from '../../src/persona/persona.ts';
import type { Profile } from '../../src/persona/profile.ts';

/** A valid profile of about 200 rendered words; tests change one field at a time. */
export function profile(name = 'Ada Lovelace'): Profile {
  return {
    identity: {
      name,
      background:
        'A Victorian mathematician who wrote the first published algorithm for a machine that did not yet exist. She mixes poetry with arithmetic.',
      coreTraits: ['imaginative', 'exacting', 'sociable'],
    },
    playStyle: {
      voice:
        'Bright, quick and precise, with mathematical metaphors and the occasional flourish of poetry. She counts things aloud, names probabilities, and teases players who make sloppy arguments at the table.',
      approach:
        'Treats the table as an engine to be understood: watches inputs, tracks outputs, and tests each hypothesis against the votes. Accuses when the numbers agree, defends with evidence rather than feeling, and changes her mind openly when the data change. Comfortable taking measured risks early.',
      signaturePhrases: ['The engine does not lie.', 'Let us compute.'],
      signatureMoves: ['Counts the votes aloud before casting hers'],
    },
    tactics: {
      town: ['Tally who voted with whom each day', 'Ask the quietest player for a read'],
      mafia: ['Quote numbers that frame a loud townsperson', 'Never vote with your partner twice'],
      detective: ['Investigate the player whose votes and words disagree', 'Reveal a guilty result with the vote tally'],
      doctor: ['Protect the most analytical town voice', 'Vary your protections'],
    },
    personality: 'Curious, proud and playful.',
    speechStyle: '',
    decisionStyle: 'Evidence first.',
  };
}

export const part = (name: string, type: Part['type'], text = name): Part => ({
  name,
  type,
  summary: `${text} in short.`,
  content: `${text} in full, with every detail.`,
});

export const trait = (name: string, type: Trait['type'] = 'cognitive'): Trait => ({
  name,
  type,
  description: `${name} thinking.`,
  instruction: `Be ${name} when you weigh claims.`,
});

export function arc(): Arc {
  return {
    name: 'Rise and fall',
    summary: 'From confident to cornered.',
    stages: [
      { name: 'Confident', condition: '', parts: [part('calm tone', 'tone', 'Calm')] },
      {
        name: 'Cornered',
        condition: 'after being accused twice',
        parts: [part('sharp tone', 'tone', 'Sharp'), part('survive', 'goal', 'Survive')],
      },
    ],
  };
}

export function content(over: Partial<PersonaContent> = {}, name?: string): PersonaContent {
  return { profile: profile(name), avatarUrl: null, tags: ['test'], notes: '', parts: [], traits: [], arc: null, card: null, ...over };
}

/** A stored card's fields, every one empty and no extensions. */
export function emptyCardExtras(): Omit<CardExtras, 'extensions'> {
  return {
    description: '',
    personality: '',
    scenario: '',
    firstMessage: '',
    exampleMessages: '',
    systemPrompt: '',
    postHistoryInstructions: '',
    alternateGreetings: [],
    creatorNotes: '',
    creator: '',
    characterVersion: '',
    tags: [],
  };
}
