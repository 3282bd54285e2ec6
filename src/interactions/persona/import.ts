import { NO_MENTIONS, boldName, cut } from '../../discord/presenters/format.ts';
import { importCard, type ImportCardOptions } from '../../persona/card-import.ts';
import { isPng } from '../../persona/card-png.ts';
import { FILE_LIMITS } from '../../persona/limits.ts';
import type { PersonaContent } from '../../persona/persona.ts';
import { importPersonaJson, PERSONA_FORMAT } from '../../persona/persona-json.ts';
import { err, ok, type Result } from '../../result.ts';
import { download, extensionOf } from './attachment.ts';
import { actorOf, personaCommand, type PersonaDeps } from './context.ts';
import { scopeOf, scopeOption } from './options.ts';
import { scopeAllowedHere } from './preconditions.ts';
import { meteredModel } from './metered-model.ts';
import { cardProfiler } from '../../agents/profiler/profiler.ts';
import { personaEmbed, warningsText } from './persona-embed.ts';

const LIMITS: Readonly<Record<string, number>> = { json: FILE_LIMITS.cardJsonBytes, png: FILE_LIMITS.cardPngBytes };

interface Imported {
  readonly persona: PersonaContent;
  readonly from: string;
  readonly warnings: readonly string[];
}

function isDramatisExport(bytes: Uint8Array): boolean {
  try {
    const raw: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return typeof raw === 'object' && raw !== null && (raw as { format?: unknown }).format === PERSONA_FORMAT;
  } catch {
    return false;
  }
}

/** Where the import runs and who asked: the budgets that pay for its profiler. */
interface Payer {
  readonly guildId: string | null;
  readonly userId: string;
}

/**
 * The profiler for a card's tactics: the configured model, metered; none offline or when a
 * budget that pays is spent (then the tactics are generic and the warning says which budget).
 */
async function cardOptions(deps: PersonaDeps, { guildId, userId }: Payer): Promise<ImportCardOptions> {
  const model = deps.models.current();
  if (model === null) return {};
  const refused = await deps.budget.refusal(guildId, userId);
  if (refused !== null) {
    return {
      noProfilerWarning: `${refused} The role tactics and play style are generic; edit them, or import the card again after the reset.`,
    };
  }
  return { profiler: cardProfiler(meteredModel(deps, model, { guildId, userId, purpose: 'card_import' })) };
}

/** A Dramatis export, else a Character Card (JSON, or PNG by its signature whatever the file is called). */
async function read(bytes: Uint8Array, deps: PersonaDeps, payer: Payer): Promise<Result<Imported, string>> {
  if (!isPng(bytes) && isDramatisExport(bytes)) {
    const persona = importPersonaJson(bytes);
    return persona.ok ? ok({ persona: persona.value, from: 'a Dramatis export', warnings: [] }) : err(persona.error.message);
  }
  const card = await importCard(bytes, await cardOptions(deps, payer));
  if (!card.ok) return err(card.error.message);
  const version = card.value.spec === 'chara_card_v3' ? 'V3' : 'V2';
  return ok({
    persona: card.value.persona,
    from: `a ${version} character card${isPng(bytes) ? ' (PNG)' : ''}`,
    warnings: card.value.warnings,
  });
}

/** /persona import file [scope]: a persona from a Dramatis export or a Character Card. */
export const importPersona = personaCommand.subcommand({
  name: 'import',
  definition: (s) =>
    s
      .setDescription('A persona from a Dramatis .json export or a Character Card (V2/V3, .json or .png)')
      .addAttachmentOption((o) => o.setName('file').setDescription('The persona or card file').setRequired(true))
      .addStringOption(scopeOption),
  preconditions: [scopeAllowedHere],
  run: async (i, { deps, ack, reply }) => {
    const file = i.options.getAttachment('file', true);
    const limit = LIMITS[extensionOf(file)];
    if (limit === undefined) {
      return reply.privately(
        `${file.name} is not a file I can import: attach a Dramatis persona export (.json) or a Character Card V2/V3 (.json or .png).`,
      );
    }
    // Downloading, and a card's tactics from the profiler, may take longer than Discord's 3 seconds.
    await ack();
    const bytes = await download(file, limit);
    if (!bytes.ok) return reply.privately(`Nothing was imported: ${bytes.error}`);
    // Past a cap the card's profiler is not asked: the store would refuse what it wrote.
    const room = await deps.personas.roomFor(actorOf(i), scopeOf(i));
    if (!room.ok) return reply.privately(`Nothing was imported: ${room.error.message}`);
    const imported = await read(bytes.value, deps, { guildId: i.guildId, userId: i.user.id });
    if (!imported.ok) return reply.privately(cut(`Nothing was imported: ${imported.error}`, 2000));
    const created = await deps.personas.create(actorOf(i), { scope: scopeOf(i), content: imported.value.persona });
    if (!created.ok) return reply.privately(cut(`Nothing was imported: ${created.error.message}`, 2000));
    await reply.answer({
      content: cut(
        `Imported ${boldName(created.value.profile.identity.name)} from ${imported.value.from}.${warningsText(imported.value.warnings)}`,
        2000,
      ),
      embeds: [personaEmbed(created.value)],
      allowedMentions: NO_MENTIONS,
    });
  },
});
