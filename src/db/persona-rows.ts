import type { Arc, Part, Trait } from '../persona/composition.ts';
import { arcSchema, partSchema, traitSchema } from '../persona/composition.ts';
import { storedCardExtrasSchema } from '../persona/card-extras.ts';
import { modelPreferenceSchema, type Persona, type Scope } from '../persona/persona.ts';
import { profileSchema } from '../persona/profile.ts';
import type { Prisma } from './generated/client.ts';

/** Everything a persona row needs joined to become a `Persona`. */
export const PERSONA_INCLUDE = {
  parts: { orderBy: { position: 'asc' }, include: { part: true } },
  traits: { orderBy: { position: 'asc' }, include: { trait: true } },
  arc: {
    include: {
      stages: { orderBy: { position: 'asc' }, include: { parts: { orderBy: { position: 'asc' }, include: { part: true } } } },
    },
  },
} as const satisfies Prisma.PersonaInclude;

export type PersonaRow = Prisma.PersonaGetPayload<{ include: typeof PERSONA_INCLUDE }>;

export function scopeOfRow(row: { scope: string; guildId: string | null }): Scope {
  if (row.scope === 'server' && row.guildId !== null) return { kind: 'server', guildId: row.guildId };
  if (row.scope === 'everyone') return { kind: 'everyone' };
  return { kind: 'private' };
}

// The store wrote these rows through the same schemas; a row that no longer parses is a bug, so it throws.
function mustParse<T>(schema: { parse(value: unknown): T }, value: unknown, what: string): T {
  try {
    return schema.parse(value);
  } catch (error) {
    throw new Error(`stored ${what} does not match its schema: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

export function partOfRow(row: { name: string; type: string; summary: string; content: string }): Part {
  return mustParse(partSchema, { name: row.name, type: row.type, summary: row.summary, content: row.content }, `part ${row.name}`);
}

function traitOfRow(row: { name: string; type: string; description: string; instruction: string }): Trait {
  return mustParse(
    traitSchema,
    { name: row.name, type: row.type, description: row.description, instruction: row.instruction },
    `trait ${row.name}`,
  );
}

export function arcOfRow(row: NonNullable<PersonaRow['arc']>): Arc {
  return mustParse(
    arcSchema,
    {
      name: row.name,
      summary: row.summary,
      stages: row.stages.map((s) => ({ name: s.name, condition: s.condition, parts: s.parts.map((l) => partOfRow(l.part)) })),
    },
    `arc ${row.name}`,
  );
}

export function personaOfRow(row: PersonaRow): Persona {
  return {
    id: row.id,
    ownerId: row.ownerId,
    scope: scopeOfRow(row),
    builtIn: row.builtIn,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    profile: mustParse(profileSchema, row.profile, `profile of persona ${row.id}`),
    avatarUrl: row.avatarUrl,
    ...(row.model !== null && { model: mustParse(modelPreferenceSchema, row.model, `model of persona ${row.id}`) }),
    tags: row.tags,
    notes: row.notes,
    parts: row.parts.map((l) => partOfRow(l.part)),
    traits: row.traits.map((l) => traitOfRow(l.trait)),
    arc: row.arc === null ? null : { arc: arcOfRow(row.arc), stage: Math.min(row.arcStage, row.arc.stages.length - 1) },
    card: row.card === null ? null : mustParse(storedCardExtrasSchema, row.card, `card of persona ${row.id}`),
  };
}
