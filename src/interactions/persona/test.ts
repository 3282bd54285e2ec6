import { EmbedBuilder, ModalBuilder, TextInputStyle, type ChatInputCommandInteraction, type ModalSubmitInteraction } from 'discord.js';
import { answerOffline, answerWithModel, SITUATION_MAX_CHARS } from '../../agents/player/answer-situation.ts';
import { customIdArgs } from '../../discord/router.ts';
import { COLOURS, cut, NO_MENTIONS } from '../../discord/presenters/format.ts';
import type { Persona } from '../../persona/persona.ts';
import { err, ok, type Result } from '../../result.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, personaCommand, type PersonaDeps } from './context.ts';
import type { Reply } from '../../discord/responder.ts';
import { personaOption } from './options.ts';
import { namedPersona } from './preconditions.ts';
import { meteredModel } from './metered-model.ts';

const TEST_MODAL = 'persona-test';
const SITUATION_INPUT = 'situation';

function situationModal(persona: Persona): ModalBuilder {
  return new ModalBuilder()
    .setCustomId(`${TEST_MODAL}:${persona.id}`)
    .setTitle(cut(`Test ${persona.profile.identity.name}`, 45))
    .addLabelComponents((label) =>
      label
        .setLabel('The situation')
        .setTextInputComponent((input) =>
          input
            .setCustomId(SITUATION_INPUT)
            .setStyle(TextInputStyle.Paragraph)
            .setMaxLength(SITUATION_MAX_CHARS)
            .setPlaceholder('e.g. Day 2. Bob says you were too quiet last night and votes for you.'),
        ),
    );
}

/** /persona test situation: the persona answers in character; without a situation, a form to describe one. */
export const testPersona = personaCommand.subcommand({
  name: 'test',
  definition: (s) =>
    s
      .setDescription('The persona answers a situation you describe, in character (without one, a form opens)')
      .addStringOption(personaOption('Which persona'))
      .addStringOption((o) =>
        o.setName('situation').setDescription('e.g. "Bob accuses you of being Mafia"').setMaxLength(SITUATION_MAX_CHARS),
      ),
  preconditions: [namedPersona],
  run: async (i, { deps, persona, ack, reply }) => {
    const situation = i.options.getString('situation')?.trim() ?? '';
    if (situation === '') {
      await reply.modal(situationModal(persona));
      return;
    }
    await answer(i, { deps, ack, reply }, persona, situation);
  },
  autocomplete: personaAutocomplete('visible'),
});

/** The situation form, sent. */
export const testSubmit = personaCommand.modal({
  id: TEST_MODAL,
  preconditions: [],
  run: async (i, { deps, ack, reply }) => {
    const persona = await deps.personas.get(actorOf(i), customIdArgs(i.customId)[0] ?? '');
    if (!persona.ok) return reply.privately('That persona no longer exists, or you can no longer use it.');
    const situation = i.fields.getTextInputValue(SITUATION_INPUT).trim();
    if (situation === '') return reply.privately('Describe a situation for the persona to answer.');
    await answer(i, { deps, ack, reply }, persona.value, situation);
  },
});

const OFFLINE_FOOTER = 'Answered offline (no language model configured): built from the persona’s traits, tactics and phrases.';
const BUDGET_FOOTER = 'Answered offline (an AI budget for today is spent): built from the persona’s traits, tactics and phrases.';

type Answer = { readonly text: string; readonly footer: string; readonly note?: string };

/** Through the configured model; offline without one, or with a note naming the budget spent (the server's, the DMs' or the person's). */
async function answerFor(
  i: ChatInputCommandInteraction | ModalSubmitInteraction,
  deps: PersonaDeps,
  persona: Persona,
  situation: string,
): Promise<Result<Answer, string>> {
  const model = deps.models.current();
  if (model === null) return ok({ text: answerOffline(persona.profile, situation), footer: OFFLINE_FOOTER });
  const rendered = await deps.personas.render(actorOf(i), persona.id);
  if (!rendered.ok) return err(rendered.error.message);
  const site = { guildId: i.guildId, userId: i.user.id, personaId: persona.id, purpose: 'persona_test' };
  const metered = meteredModel(deps, model, site);
  const answered = await answerWithModel(rendered.value, situation, metered);
  const refused = metered.provider.refusalMessage();
  if (!answered.ok && refused !== null) {
    return ok({
      text: answerOffline(persona.profile, situation),
      footer: BUDGET_FOOTER,
      note: `${refused} ${persona.profile.identity.name} answered offline instead.`,
    });
  }
  if (!answered.ok) {
    deps.log.warn(`persona test of ${persona.id} on ${model.model}: ${answered.error.detail}`);
    return err(`${persona.profile.identity.name} could not answer. ${answered.error.said}`);
  }
  return ok({ text: answered.value, footer: `Answered by ${model.model}.` });
}

/** Deferred first: a model may take longer than Discord's 3 seconds. */
async function answer(
  i: ChatInputCommandInteraction | ModalSubmitInteraction,
  { deps, ack, reply }: { readonly deps: PersonaDeps; readonly ack: () => Promise<void>; readonly reply: Reply },
  persona: Persona,
  situation: string,
): Promise<void> {
  await ack();
  const answered = await answerFor(i, deps, persona, situation);
  if (!answered.ok) return reply.privately(answered.error);
  const embed = new EmbedBuilder()
    .setColor(COLOURS.day)
    .setAuthor({ name: cut(persona.profile.identity.name, 256), ...(persona.avatarUrl ? { iconURL: persona.avatarUrl } : {}) })
    .setDescription(cut(answered.value.text, 4096))
    .addFields({ name: 'Situation', value: cut(situation, 1024) })
    .setFooter({ text: answered.value.footer });
  await reply.answer({
    ...(answered.value.note !== undefined && { content: answered.value.note }),
    embeds: [embed],
    allowedMentions: NO_MENTIONS,
  });
}
