import { err, ok, type Result } from '../result.ts';
import { describeIssues, personaError, type PersonaError } from '../persona/errors.ts';
import { scopeKey } from '../persona/permissions.ts';
import { personaContentSchema, personaName, type Persona, type PersonaContent, type Scope } from '../persona/persona.ts';
import { personaSizeError } from '../persona/persona-json.ts';
import { renderPersona } from '../persona/render.ts';
import { nameKey } from '../persona/text.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';
import type { PersonaCaps } from '../config.ts';
import { refusePastCaps } from './persona-caps.ts';
import { writeComposition } from './persona-composition-writes.ts';
import { Refusal, writePersonas, type Tx } from './persona-transaction.ts';
import { STALE_COMPILED, staleError } from './persona-versions.ts';

/** A persona's content as the schemas, the whole-size bound and the length cap accept it, or why not. */
export function validContent(input: unknown): Result<PersonaContent, PersonaError> {
  const parsed = personaContentSchema.safeParse(input);
  if (!parsed.success) return err(personaError('invalid', `The persona is invalid: ${describeIssues(parsed.error)}.`));
  const tooLarge = personaSizeError(parsed.data);
  if (tooLarge !== null) return err(tooLarge);
  // The hard cap on length applies to both renderings.
  for (const detail of [false, true]) {
    const rendered = renderPersona(parsed.data, { detail });
    if (!rendered.ok) return rendered;
  }
  return ok(parsed.data);
}

/** Writes a new persona with its composition, refused past `caps` (none for the starter pack); the id of its row. */
export async function createIn(
  prisma: PrismaClient,
  owner: { scope: Scope; ownerId: string; builtIn: boolean },
  content: PersonaContent,
  caps: PersonaCaps | null,
): Promise<Result<string, PersonaError>> {
  const key = scopeKey(owner.scope, owner.ownerId);
  const guildId = owner.scope.kind === 'server' ? owner.scope.guildId : null;
  return writePersonas(prisma, async (tx) => {
    if (caps !== null) await refusePastCaps(tx, caps, { ownerId: owner.ownerId, guildId });
    await refuseTakenName(tx, key, personaName(content), null);
    const row = await tx.persona.create({
      data: {
        ...personaColumns(content),
        nameKey: nameKey(personaName(content)),
        scopeKey: key,
        scope: owner.scope.kind,
        guildId,
        ownerId: owner.ownerId,
        builtIn: owner.builtIn,
      },
    });
    await writeComposition(tx, row.id, { key, ownerId: owner.ownerId, builtIn: owner.builtIn }, content);
    return row.id;
  });
}

/** Replaces a persona's content, refused as `stale` unless `expectedVersion` is the stored one. */
export async function replaceContent(
  prisma: PrismaClient,
  persona: Persona,
  expectedVersion: number,
  content: PersonaContent,
): Promise<Result<void, PersonaError>> {
  const key = scopeKey(persona.scope, persona.ownerId);
  return writePersonas(prisma, async (tx) => {
    await refuseTakenName(tx, key, personaName(content), persona.id);
    const claimed = await tx.persona.updateMany({
      where: { id: persona.id, version: expectedVersion },
      data: { ...personaColumns(content), nameKey: nameKey(personaName(content)), version: { increment: 1 }, ...STALE_COMPILED },
    });
    if (claimed.count === 0) throw new Refusal(staleError(persona.version, expectedVersion));
    await writeComposition(tx, persona.id, { key, ownerId: persona.ownerId, builtIn: persona.builtIn }, content);
  });
}

function personaColumns(content: PersonaContent) {
  return {
    name: personaName(content),
    profile: content.profile as Prisma.InputJsonValue,
    avatarUrl: content.avatarUrl,
    model: content.model ? (content.model as Prisma.InputJsonValue) : Prisma.DbNull,
    tags: content.tags,
    notes: content.notes,
    card: content.card === null ? Prisma.DbNull : (content.card as Prisma.InputJsonValue),
    arcStage: content.arc?.stage ?? 0,
  };
}

async function refuseTakenName(tx: Tx, key: string, name: string, selfId: string | null): Promise<void> {
  const taken = await tx.persona.findUnique({
    where: { scopeKey_nameKey: { scopeKey: key, nameKey: nameKey(name) } },
    select: { id: true },
  });
  if (taken !== null && taken.id !== selfId)
    throw new Refusal(personaError('name_taken', `A persona named "${name}" already exists here.`));
}
