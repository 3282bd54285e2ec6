import type { Arc, Part, Trait } from '../persona/composition.ts';
import { personaError } from '../persona/errors.ts';
import type { PersonaContent } from '../persona/persona.ts';
import { nameKey } from '../persona/text.ts';
import { arcOfRow, PERSONA_INCLUDE } from './persona-rows.ts';
import { Refusal, type Tx } from './persona-transaction.ts';

interface Owner {
  readonly key: string;
  readonly ownerId: string;
  readonly builtIn: boolean;
}

/** Links the persona's parts, traits and arc, reusing same-named identical ones in its scope or everyone's. */
export async function writeComposition(tx: Tx, personaId: string, owner: Owner, content: PersonaContent): Promise<void> {
  await tx.personaPartLink.deleteMany({ where: { personaId } });
  await tx.personaTraitLink.deleteMany({ where: { personaId } });
  for (const [position, part] of content.parts.entries()) {
    await tx.personaPartLink.create({ data: { personaId, partId: await ensurePart(tx, owner, part), position } });
  }
  for (const [position, trait] of content.traits.entries()) {
    await tx.personaTraitLink.create({ data: { personaId, traitId: await ensureTrait(tx, owner, trait), position } });
  }
  const arcId = content.arc === null ? null : await ensureArc(tx, owner, content.arc.arc);
  await tx.persona.update({ where: { id: personaId }, data: { arcId } });
}

/** The same name in the owner's scope first, then in everyone's. */
function pickScoped<T extends { scopeKey: string }>(rows: readonly T[], owner: Owner): T | undefined {
  return rows.find((r) => r.scopeKey === owner.key) ?? rows.find((r) => r.scopeKey === 'everyone');
}

function conflict(what: string, name: string): Refusal {
  return new Refusal(
    personaError('name_taken', `A ${what} named "${name}" already exists here with different content; rename yours or edit that ${what}.`),
  );
}

async function ensurePart(tx: Tx, owner: Owner, part: Part): Promise<string> {
  const rows = await tx.personaPart.findMany({ where: { nameKey: nameKey(part.name), scopeKey: { in: [owner.key, 'everyone'] } } });
  const found = pickScoped(rows, owner);
  if (found !== undefined && found.type === part.type && found.summary === part.summary && found.content === part.content) return found.id;
  if (found !== undefined && found.scopeKey === owner.key) throw conflict('part', part.name);
  const row = await tx.personaPart.create({
    data: { ...part, nameKey: nameKey(part.name), scopeKey: owner.key, ownerId: owner.ownerId, builtIn: owner.builtIn },
  });
  return row.id;
}

async function ensureTrait(tx: Tx, owner: Owner, trait: Trait): Promise<string> {
  const rows = await tx.personaTrait.findMany({ where: { nameKey: nameKey(trait.name), scopeKey: { in: [owner.key, 'everyone'] } } });
  const found = pickScoped(rows, owner);
  if (
    found !== undefined &&
    found.type === trait.type &&
    found.description === trait.description &&
    found.instruction === trait.instruction
  ) {
    return found.id;
  }
  if (found !== undefined && found.scopeKey === owner.key) throw conflict('trait', trait.name);
  const row = await tx.personaTrait.create({
    data: { ...trait, nameKey: nameKey(trait.name), scopeKey: owner.key, ownerId: owner.ownerId, builtIn: owner.builtIn },
  });
  return row.id;
}

async function ensureArc(tx: Tx, owner: Owner, arc: Arc): Promise<string> {
  const rows = await tx.personaArc.findMany({
    where: { nameKey: nameKey(arc.name), scopeKey: { in: [owner.key, 'everyone'] } },
    include: PERSONA_INCLUDE.arc.include,
  });
  const found = pickScoped(rows, owner);
  if (found !== undefined && JSON.stringify(arcOfRow(found)) === JSON.stringify(arc)) return found.id;
  if (found !== undefined && found.scopeKey === owner.key) throw conflict('arc', arc.name);
  const row = await tx.personaArc.create({
    data: {
      name: arc.name,
      nameKey: nameKey(arc.name),
      scopeKey: owner.key,
      ownerId: owner.ownerId,
      builtIn: owner.builtIn,
      summary: arc.summary,
    },
  });
  for (const [position, stage] of arc.stages.entries()) {
    const created = await tx.personaArcStage.create({ data: { arcId: row.id, position, name: stage.name, condition: stage.condition } });
    for (const [partPosition, part] of stage.parts.entries()) {
      await tx.personaArcStagePart.create({
        data: { stageId: created.id, partId: await ensurePart(tx, owner, part), position: partPosition },
      });
    }
  }
  return row.id;
}
