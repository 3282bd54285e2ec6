import { z } from 'zod';

// Character Card V2 / V3 (SillyTavern). Only `name` is truly required; real cards often leave
// other fields out, so they default to empty rather than refuse a usable card.
const str = z.string().default('');
const cardDataShape = {
  name: z.string({ error: 'the card has no name' }).trim().min(1, { error: 'the card has an empty name' }),
  description: str,
  personality: str,
  scenario: str,
  first_mes: str,
  mes_example: str,
  creator_notes: str,
  system_prompt: str,
  post_history_instructions: str,
  alternate_greetings: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
  creator: str,
  character_version: str,
  extensions: z.record(z.string(), z.unknown()).default({}),
};

export const cardV2Schema = z.object({
  spec: z.literal('chara_card_v2'),
  spec_version: z.string().default('2.0'),
  data: z.object(cardDataShape, { error: 'the card has no data object' }),
});

export const cardV3Schema = z.object({
  spec: z.literal('chara_card_v3'),
  spec_version: z.string().default('3.0'),
  data: z.object({ ...cardDataShape, nickname: z.string().optional() }, { error: 'the card has no data object' }),
});

export type CardData = z.infer<typeof cardV2Schema>['data'];

/** The V2 card Dramatis writes: every field present, as the spec asks. */
export interface CardV2 {
  spec: 'chara_card_v2';
  spec_version: '2.0';
  data: {
    name: string;
    description: string;
    personality: string;
    scenario: string;
    first_mes: string;
    mes_example: string;
    creator_notes: string;
    system_prompt: string;
    post_history_instructions: string;
    alternate_greetings: string[];
    tags: string[];
    creator: string;
    character_version: string;
    extensions: Record<string, unknown>;
  };
}
