import {
  ActionRowBuilder,
  EmbedBuilder,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { answerOffline, answerWithModel, SITUATION_MAX_CHARS } from '../../agents/player/answer-situation.ts';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import { COLOURS, cut, NO_MENTIONS } from '../../discord/presenters/format.ts';
import type { Persona } from '../../persona/persona.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, storeOf, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';

export const TEST_MODAL = 'persona-test';
export const SITUATION_INPUT = 'situation';

function situationModal(persona: Persona): ModalBuilder {
  const input = new TextInputBuilder()
    .setCustomId(SITUATION_INPUT)
    .setLabel('The situation')
    .setStyle(TextInputStyle.Paragraph)
    .setMaxLength(SITUATION_MAX_CHARS)
    .setPlaceholder('e.g. Day 2. Bob says you were too quiet last night and votes for you.');
  return new ModalBuilder()
    .setCustomId(`${TEST_MODAL}:${persona.id}`)
    .setTitle(cut(`Test ${persona.profile.identity.name}`, 45))
    .addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input));
}

async function testSlash(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = await storeOf(i, deps);
  if (!store) return;
  const persona = await findPersona(store, actorOf(i), i.options.getString('persona', true));
  if (!persona.ok) return refuse(i, persona.error);
  const situation = i.options.getString('situation')?.trim() ?? '';
  if (situation === '') {
    await i.showModal(situationModal(persona.value));
    return;
  }
  await answer(i, deps, persona.value, situation);
}

async function testModal(i: ModalSubmitInteraction, deps: PersonaDeps): Promise<void> {
  const store = await storeOf(i, deps);
  if (!store) return;
  const persona = await store.get(actorOf(i), customIdArgs(i.customId)[0] ?? '');
  if (!persona.ok) return refuse(i, 'That persona no longer exists, or you can no longer use it.');
  const situation = i.fields.getTextInputValue(SITUATION_INPUT).trim();
  if (situation === '') return refuse(i, 'Describe a situation for the persona to answer.');
  await answer(i, deps, persona.value, situation);
}

/** Deferred first: a model may take longer than Discord's 3 seconds. */
async function answer(i: ChatInputCommandInteraction | ModalSubmitInteraction, deps: PersonaDeps, persona: Persona, situation: string): Promise<void> {
  await i.deferReply({ flags: MessageFlags.Ephemeral });
  const name = persona.profile.identity.name;
  const model = deps.models.current();
  let text: string;
  if (model === null) {
    text = answerOffline(persona.profile, situation);
  } else {
    const rendered = await deps.personas!.render(actorOf(i), persona.id);
    if (!rendered.ok) return refuse(i, rendered.error.message);
    const answered = await answerWithModel({ profile: persona.profile, block: rendered.value.block }, situation, model);
    if (!answered.ok) return refuse(i, `${name} could not answer: ${answered.error}`);
    text = answered.value;
  }
  const embed = new EmbedBuilder()
    .setColor(COLOURS.day)
    .setAuthor({ name: cut(name, 256), ...(persona.avatarUrl ? { iconURL: persona.avatarUrl } : {}) })
    .setDescription(cut(text, 4096))
    .addFields({ name: 'Situation', value: cut(situation, 1024) })
    .setFooter({ text: model === null ? 'Answered offline (no language model configured): built from the persona’s traits, tactics and phrases.' : `Answered by ${model.model}.` });
  await i.editReply({ embeds: [embed], allowedMentions: NO_MENTIONS });
}

export function registerTest(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'test', (i) => testSlash(i, deps));
  router.onAutocomplete(PERSONA, 'test', personaAutocomplete(deps, 'visible'));
  router.onModal(TEST_MODAL, (i) => testModal(i, deps));
}
