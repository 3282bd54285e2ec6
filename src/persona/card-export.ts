import type { CardV2 } from './card-schema.ts';
import { DRAMATIS_EXTENSION } from './card-import.ts';
import { pngWithCard } from './card-png.ts';
import type { PersonaContent } from './persona.ts';
import { PERSONA_FORMAT_VERSION } from './persona-json.ts';
import { renderPersona } from './render.ts';

/**
 * A valid Character Card V2 of the persona. A persona imported from a card gives its card fields
 * back as they came (extensions included); the whole persona also rides along in
 * `extensions.dramatis`, so importing the card into Dramatis restores it exactly.
 */
export function exportCardV2(persona: PersonaContent): CardV2 {
  const { card: extras, ...rest } = persona;
  const dramatis = { version: PERSONA_FORMAT_VERSION, persona: rest };
  const { identity, playStyle } = persona.profile;
  if (extras !== null) {
    return {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: identity.name,
        description: extras.description,
        personality: extras.personality,
        scenario: extras.scenario,
        first_mes: extras.firstMessage,
        mes_example: extras.exampleMessages,
        creator_notes: extras.creatorNotes,
        system_prompt: extras.systemPrompt,
        post_history_instructions: extras.postHistoryInstructions,
        alternate_greetings: extras.alternateGreetings,
        tags: extras.tags,
        creator: extras.creator,
        character_version: extras.characterVersion,
        extensions: { ...extras.extensions, [DRAMATIS_EXTENSION]: dramatis },
      },
    };
  }
  const rendered = renderPersona(persona);
  return {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: identity.name,
      description: [identity.background, ...persona.parts.filter((p) => p.type === 'backstory').map((p) => p.content)].join('\n\n'),
      personality: [identity.coreTraits.join(', '), persona.profile.personality].filter((s) => s !== '').join('. '),
      scenario: 'A game of Mafia on Discord.',
      first_mes: playStyle.signaturePhrases[0] ?? '',
      mes_example: playStyle.signaturePhrases.map((p) => `<START>\n{{char}}: ${p}`).join('\n'),
      creator_notes: persona.notes === '' ? 'Exported from Dramatis.' : persona.notes,
      system_prompt: rendered.ok ? rendered.value.block : '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: [...persona.tags],
      creator: '',
      character_version: '1',
      extensions: { [DRAMATIS_EXTENSION]: dramatis },
    },
  };
}

export function exportCardV2Json(persona: PersonaContent): string {
  return `${JSON.stringify(exportCardV2(persona), null, 2)}\n`;
}

/** The card in a PNG's `chara` chunk, over the given image or a blank 1×1 one. */
export function exportCardV2Png(persona: PersonaContent, image?: Uint8Array): Uint8Array {
  return pngWithCard(JSON.stringify(exportCardV2(persona)), image);
}
