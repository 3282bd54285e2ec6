import {
  ActionRowBuilder,
  AttachmentBuilder,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { customIdArgs } from '../../discord/router.ts';
import { NO_MENTIONS, boldName, cut } from '../../discord/presenters/format.ts';
import { FILE_LIMITS } from '../../persona/limits.ts';
import { PROFILE_LIMITS } from '../../persona/profile.ts';
import { offlinePersona } from '../../persona/offline-profile.ts';
import type { PersonaContent, Scope } from '../../persona/persona.ts';
import { buildProfile } from '../../agents/profiler/profiler.ts';
import { err, ok, type Result } from '../../result.ts';
import { download, extensionOf, textOf } from './attachment.ts';
import { actorOf, personaCommand, type PersonaDeps } from './context.ts';
import type { Reply } from '../../discord/responder.ts';
import { scopeOf, scopeOption } from './options.ts';
import { scopeAllowedHere } from './preconditions.ts';
import { meteredModel } from './metered-model.ts';
import { personaEmbed } from './persona-embed.ts';

const CREATE_MODAL = 'persona-create';
/** Discord allows 5 inputs of 4,000 characters in a modal; the biography may fill all of them. */
const BIO_INPUTS = 5;
const INPUT_MAX = 4000;
const CUSTOM_ID_MAX = 100;
const TEXT_EXTENSIONS = ['txt', 'md', 'markdown', 'text'];
/** UTF-8 takes at most 4 bytes a character. */
const MAX_FILE_BYTES = FILE_LIMITS.rawTextChars * 4;

const bioInputId = (n: number): string => `bio${n}`;

/* eslint-disable @typescript-eslint/no-deprecated -- action rows until test/discord/bot/persona-commands.test.ts reads labels */
/** The name rides in the custom id (60 characters at most, so it fits in Discord's 100). */
function createModal(name: string, scope: Scope): ModalBuilder {
  const inputs = Array.from({ length: BIO_INPUTS }, (_, k) =>
    new TextInputBuilder()
      .setCustomId(bioInputId(k + 1))
      .setLabel(k === 0 ? 'Biography' : `Biography, continued (${k + 1} of ${BIO_INPUTS})`)
      .setStyle(TextInputStyle.Paragraph)
      .setMaxLength(INPUT_MAX)
      .setRequired(k === 0)
      .setPlaceholder(
        k === 0 ? 'Who they are, how they talk, what they care about…' : 'More text, if the biography is longer than 4,000 characters',
      ),
  );
  return new ModalBuilder()
    .setCustomId(`${CREATE_MODAL}:${scope.kind}:${name}`)
    .setTitle(cut(`Biography of ${name}`, 45))
    .addComponents(inputs.map((input) => new ActionRowBuilder<TextInputBuilder>().addComponents(input)));
}
/* eslint-enable @typescript-eslint/no-deprecated */

/** Discord's limit on a string option; longer biographies go through the modal or a file. */
const TEXT_OPTION_MAX = 6000;

/** /persona create name [text|file] [scope]: a persona from a biography; without text or file, a form to write it in. */
export const create = personaCommand.subcommand({
  name: 'create',
  definition: (s) =>
    s
      .setDescription('A persona from a name and a biography (without text or file, a form opens)')
      .addStringOption((o) => o.setName('name').setDescription('Who it is').setRequired(true).setMaxLength(PROFILE_LIMITS.name.max))
      .addStringOption((o) =>
        o.setName('text').setDescription('The biography (longer: leave empty for a form, or attach a file)').setMaxLength(TEXT_OPTION_MAX),
      )
      .addAttachmentOption((o) => o.setName('file').setDescription('The biography as a .txt or .md file'))
      .addStringOption(scopeOption),
  preconditions: [scopeAllowedHere],
  run: async (i, { deps, ack, reply }) => {
    const name = i.options.getString('name', true).trim().replace(/\s+/g, ' ');
    if (name === '') return reply.privately('The name must not be empty.');
    const text = i.options.getString('text');
    const file = i.options.getAttachment('file');
    if (text !== null && file !== null) return reply.privately('Give the biography as text or as a file, not both.');
    if (text === null && file === null) {
      const modal = createModal(name, scopeOf(i));
      // Names of many emoji or other wide characters can overflow Discord's 100-character custom id.
      if ((modal.data.custom_id?.length ?? 0) > CUSTOM_ID_MAX)
        return reply.privately('That name is too long for the form; give the biography with `text:` or `file:` instead.');
      await reply.modal(modal);
      return;
    }
    if (file !== null && !TEXT_EXTENSIONS.includes(extensionOf(file))) {
      return reply.privately(
        `${file.name} is not a text file: attach the biography as .txt or .md (to import a persona or a character card, use \`/persona import\`).`,
      );
    }
    await ack();
    let bio = text ?? '';
    if (file !== null) {
      const bytes = await download(file, MAX_FILE_BYTES);
      if (!bytes.ok) return reply.privately(bytes.error);
      const decoded = textOf(bytes.value, file.name);
      if (!decoded.ok) return reply.privately(decoded.error);
      bio = decoded.value;
    }
    // A typed biography comes back with any refusal: what the person wrote is never lost.
    await createPersona(i, deps, reply, { name, bio, scope: scopeOf(i), giveBack: text !== null });
  },
});

/** The biography form, sent. */
export const createSubmit = personaCommand.modal({
  id: CREATE_MODAL,
  preconditions: [],
  run: async (i, { deps, ack, reply }) => {
    const [kind, ...rest] = customIdArgs(i.customId);
    const name = rest.join(':');
    const scope: Scope = kind === 'server' && i.guildId !== null ? { kind: 'server', guildId: i.guildId } : { kind: 'private' };
    const pieces = Array.from({ length: BIO_INPUTS }, (_, k) => i.fields.getTextInputValue(bioInputId(k + 1)));
    const bio = pieces.filter((p) => p.trim() !== '').join('\n');
    await ack();
    await createPersona(i, deps, reply, { name, bio, scope, giveBack: true });
  },
});

/** What was built, and why offline when it was (null: the model wrote it; a budget's refusal: that sentence). */
interface Built {
  readonly content: PersonaContent;
  readonly offline: 'no_model' | { readonly budgetSpent: string } | null;
}

const NO_MODEL_NOTE = ' (built offline: play style and tactics are generic until a language model is configured)';
const BUDGET_PROFILE_NOTE =
  'Built from the biography without a language model, as an AI budget for the day was spent: play style and role tactics are generic. Edit them, or create it again once the budget resets.';

/** The profile: from the configured model, else (no model, or a budget that pays spent) built offline from the biography. */
async function contentFrom(
  deps: PersonaDeps,
  payer: { readonly guildId: string | null; readonly userId: string },
  name: string,
  bio: string,
): Promise<Result<Built, string>> {
  const offline = (why: Built['offline'] & {}): Result<Built, string> => {
    const built = offlinePersona(name, bio);
    if (!built.ok) return err(built.error.message);
    return ok({ content: why === 'no_model' ? built.value : { ...built.value, notes: BUDGET_PROFILE_NOTE }, offline: why });
  };
  const model = deps.models.current();
  if (model === null) return offline('no_model');
  // The persona does not exist yet, so its calls carry no persona id.
  const metered = meteredModel(deps, model, { ...payer, purpose: 'profile' });
  const profile = await buildProfile(name, bio, metered);
  // Refused before the first call or between two (a long biography): nothing more was sent.
  const refused = metered.provider.refusalMessage();
  if (!profile.ok && refused !== null) return offline({ budgetSpent: refused });
  if (!profile.ok) {
    if (profile.error.detail !== undefined) deps.log.warn(`the profiler's model call failed: ${profile.error.detail}`);
    return err(profile.error.message);
  }
  return ok({
    content: { profile: profile.value, avatarUrl: null, tags: [], notes: '', parts: [], traits: [], arc: null, card: null },
    offline: null,
  });
}

async function createPersona(
  i: ChatInputCommandInteraction | ModalSubmitInteraction,
  deps: PersonaDeps,
  reply: Reply,
  input: { name: string; bio: string; scope: Scope; giveBack: boolean },
): Promise<void> {
  // Past a cap the model is not asked: the store would refuse what it wrote.
  const room = await deps.personas.roomFor(actorOf(i), input.scope);
  const built = room.ok
    ? await contentFrom(deps, { guildId: i.guildId, userId: i.user.id }, input.name, input.bio)
    : err(room.error.message);
  const created = built.ok ? await deps.personas.create(actorOf(i), { scope: input.scope, content: built.value.content }) : null;
  if (built.ok && created?.ok) {
    const name = created.value.profile.identity.name;
    const { offline } = built.value;
    const content =
      offline !== null && offline !== 'no_model'
        ? `Created ${boldName(name)} (built offline: play style and tactics are generic). ${offline.budgetSpent} Try it with \`/persona test\`.`
        : `Created ${boldName(name)}${offline === 'no_model' ? NO_MODEL_NOTE : ''}. Try it with \`/persona test\`.`;
    await reply.answer({ content, embeds: [personaEmbed(created.value)], allowedMentions: NO_MENTIONS });
    return;
  }
  const reason = !built.ok ? built.error : created !== null && !created.ok ? created.error.message : '';
  const files =
    input.giveBack && input.bio.trim() !== '' ? [new AttachmentBuilder(Buffer.from(input.bio, 'utf8'), { name: 'biography.txt' })] : [];
  const keep = files.length > 0 ? '\nYour biography is attached: use it with `/persona create file:` once this is fixed.' : '';
  await reply.answer({ content: cut(`Nothing was created: ${reason}${keep}`, 2000), files, allowedMentions: NO_MENTIONS });
}
