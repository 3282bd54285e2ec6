import { err, ok, type Result } from '../result.ts';
import { advanceArc, resetArc, type PartOverrides } from '../persona/compose.ts';
import { partSchema, PART_TYPES, type Arc, type ArcProgress, type Part, type PartType, type Trait } from '../persona/composition.ts';
import { describeIssues, personaError, type PersonaError } from '../persona/errors.ts';
import { canSee, mayCreateIn, mayEdit, STARTER_OWNER, scopeKey, visibleScopeKeys, type Actor } from '../persona/permissions.ts';
import { exportPersonaJson } from '../persona/persona-json.ts';
import { personaContentSchema, personaName, scopeSchema, type Persona, type PersonaContent, type Scope } from '../persona/persona.ts';
import { renderedPersonaSchema, renderPersona, type RenderedPersona } from '../persona/render.ts';
import { scopeOfKey } from '../persona/scope-key.ts';
import { nameKey } from '../persona/text.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';
import { arcOfRow, PERSONA_INCLUDE, personaOfRow, partOfRow, scopeOfRow } from './persona-rows.ts';
import { PersonaIndex, type PersonaSummary } from './persona-search.ts';

export type { PersonaSummary } from './persona-search.ts';

type BuiltInOutcome = 'created' | 'updated' | 'unchanged';

interface RenderRequest {
  readonly detail?: boolean;
  /** Part names by the type they replace, for this load only. */
  readonly overrides?: Partial<Record<PartType, string>>;
}

/**
 * Personas over Prisma. Every input is validated by the persona schemas; every refusal comes
 * back as a PersonaError and writes nothing. Permissions are checked against the `actor`.
 */
export interface PersonaStore {
  create(actor: Actor, input: { scope: Scope; content: unknown }): Promise<Result<Persona, PersonaError>>;
  get(actor: Actor, id: string): Promise<Result<Persona, PersonaError>>;
  /** The actor's own persona of that name first, then the server's, then everyone's. */
  getByName(actor: Actor, name: string): Promise<Result<Persona, PersonaError>>;
  /** Visible personas, from the in-memory index. */
  list(actor: Actor): Promise<PersonaSummary[]>;
  /** For autocomplete, from the in-memory index (at most 25). */
  search(actor: Actor, query: string, limit?: number): Promise<PersonaSummary[]>;
  /** Refused as `stale` unless `expectedVersion` is the stored version. */
  update(actor: Actor, id: string, expectedVersion: number, content: unknown): Promise<Result<Persona, PersonaError>>;
  /** Refused while the persona sits in a running game. */
  remove(actor: Actor, id: string): Promise<Result<void, PersonaError>>;
  /** An editable copy owned by the actor (the way to customise a starter persona). */
  duplicate(actor: Actor, id: string, target: { scope: Scope; name?: string }): Promise<Result<Persona, PersonaError>>;
  advanceArc(actor: Actor, id: string, expectedVersion: number): Promise<Result<Persona, PersonaError>>;
  resetArc(actor: Actor, id: string, expectedVersion: number): Promise<Result<Persona, PersonaError>>;
  /** The persona block; without overrides it is served from (and saved as) the compiled copy. */
  render(actor: Actor, id: string, request?: RenderRequest): Promise<Result<RenderedPersona, PersonaError>>;
  /** A part the actor can see, by name (own, then server, then everyone). */
  findPart(actor: Actor, name: string): Promise<Result<Part, PersonaError>>;
  /** Changes a shared part; every persona using it recompiles. */
  updatePart(actor: Actor, name: string, part: unknown): Promise<Result<Part, PersonaError>>;
  /** The starter pack's way in: creates or refreshes a read-only persona visible everywhere. */
  upsertBuiltIn(content: unknown): Promise<Result<BuiltInOutcome, PersonaError>>;
}

/** Thrown inside a transaction to roll it back; caught at its edge and returned as a value. */
class Refusal extends Error {
  constructor(readonly refusal: PersonaError) {
    super(refusal.message);
  }
}

type Tx = Prisma.TransactionClient;

const STALE_COMPILED = { compiledSummary: Prisma.DbNull, compiledDetail: Prisma.DbNull, compiledAt: null } as const;

export function createPersonaStore(prisma: PrismaClient): PersonaStore {
  const index = new PersonaIndex();
  let loaded: Promise<void> | null = null;
  const ready = (): Promise<void> =>
    (loaded ??= prisma.persona
      .findMany({ select: { id: true, name: true, scope: true, guildId: true, ownerId: true, builtIn: true, tags: true } })
      .then((rows) =>
        index.replaceAll(
          rows.map((r) => ({ id: r.id, name: r.name, scope: scopeOfRow(r), ownerId: r.ownerId, builtIn: r.builtIn, tags: r.tags })),
        ),
      ));
  const remember = (p: Persona): void =>
    index.put({ id: p.id, name: personaName(p), scope: p.scope, ownerId: p.ownerId, builtIn: p.builtIn, tags: p.tags });

  async function load(id: string): Promise<Persona | null> {
    const row = await prisma.persona.findUnique({ where: { id }, include: PERSONA_INCLUDE });
    return row === null ? null : personaOfRow(row);
  }

  async function visible(actor: Actor, id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null || !canSee(actor, persona)) return err(personaError('not_found', 'No such persona.'));
    return ok(persona);
  }

  async function editable(actor: Actor, id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null) return err(personaError('not_found', 'No such persona.'));
    const allowed = mayEdit(actor, persona);
    return allowed.ok ? ok(persona) : allowed;
  }

  /** Runs a write; a Refusal thrown inside rolls it back and becomes the error. */
  async function write<T>(run: (tx: Tx) => Promise<T>): Promise<Result<T, PersonaError>> {
    try {
      return ok(await prisma.$transaction(run));
    } catch (error) {
      if (error instanceof Refusal) return err(error.refusal);
      if (isUniqueViolation(error)) return err(personaError('name_taken', 'That name was just taken in this scope; pick another.'));
      throw error;
    }
  }

  async function saved(id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null) throw new Error(`persona ${id} vanished right after it was written`);
    remember(persona);
    return ok(persona);
  }

  async function createIn(owner: { scope: Scope; ownerId: string; builtIn: boolean }, content: PersonaContent) {
    const key = scopeKey(owner.scope, owner.ownerId);
    return write(async (tx) => {
      await refuseTakenName(tx, key, personaName(content), null);
      const row = await tx.persona.create({
        data: {
          ...personaColumns(content),
          nameKey: nameKey(personaName(content)),
          scopeKey: key,
          scope: owner.scope.kind,
          guildId: owner.scope.kind === 'server' ? owner.scope.guildId : null,
          ownerId: owner.ownerId,
          builtIn: owner.builtIn,
        },
      });
      await writeComposition(tx, row.id, { key, ownerId: owner.ownerId, builtIn: owner.builtIn }, content);
      return row.id;
    });
  }

  async function replaceContent(persona: Persona, expectedVersion: number, content: PersonaContent) {
    const key = scopeKey(persona.scope, persona.ownerId);
    return write(async (tx) => {
      await refuseTakenName(tx, key, personaName(content), persona.id);
      const claimed = await tx.persona.updateMany({
        where: { id: persona.id, version: expectedVersion },
        data: { ...personaColumns(content), nameKey: nameKey(personaName(content)), version: { increment: 1 }, ...STALE_COMPILED },
      });
      if (claimed.count === 0) throw new Refusal(staleError(persona.version, expectedVersion));
      await writeComposition(tx, persona.id, { key, ownerId: persona.ownerId, builtIn: persona.builtIn }, content);
    });
  }

  async function moveArc(actor: Actor, id: string, expectedVersion: number, step: (arc: ArcProgress) => Result<ArcProgress, PersonaError>) {
    const persona = await editable(actor, id);
    if (!persona.ok) return persona;
    if (persona.value.arc === null) return err(personaError('invalid', `${personaName(persona.value)} has no arc.`));
    const next = step(persona.value.arc);
    if (!next.ok) return next;
    const claimed = await prisma.persona.updateMany({
      where: { id, version: expectedVersion },
      data: { arcStage: next.value.stage, version: { increment: 1 }, ...STALE_COMPILED },
    });
    if (claimed.count === 0) return err(staleError(persona.value.version, expectedVersion));
    return saved(id);
  }

  async function findVisiblePart(scopeKeys: readonly string[], name: string): Promise<Part | null> {
    const rows = await prisma.personaPart.findMany({ where: { nameKey: nameKey(name), scopeKey: { in: [...scopeKeys] } } });
    const row = scopeKeys.map((k) => rows.find((r) => r.scopeKey === k)).find((r) => r !== undefined);
    return row === undefined ? null : partOfRow(row);
  }

  async function overridesFor(actor: Actor, persona: Persona, names: Partial<Record<PartType, string>>) {
    const out: PartOverrides = {};
    const scopes = [...new Set([...visibleScopeKeys(actor), scopeKey(persona.scope, persona.ownerId)])];
    for (const type of PART_TYPES) {
      const name = names[type];
      if (name === undefined) continue;
      const part = await findVisiblePart(scopes, name);
      if (part === null) return err(personaError('not_found', `No part named "${name}" to override ${type} with.`));
      out[type] = part;
    }
    return ok(out);
  }

  return {
    async create(actor, input) {
      await ready();
      const scope = scopeSchema.safeParse(input.scope);
      if (!scope.success) return err(personaError('invalid', `scope: ${describeIssues(scope.error)}`));
      const allowed = mayCreateIn(actor, scope.data);
      if (!allowed.ok) return allowed;
      const content = validContent(input.content);
      if (!content.ok) return content;
      const created = await createIn({ scope: scope.data, ownerId: actor.userId, builtIn: false }, content.value);
      return created.ok ? saved(created.value) : created;
    },

    get: visible,

    async getByName(actor, name) {
      const rows = await prisma.persona.findMany({
        where: { nameKey: nameKey(name), scopeKey: { in: visibleScopeKeys(actor) } },
        select: { id: true, scopeKey: true },
      });
      const row = visibleScopeKeys(actor)
        .map((k) => rows.find((r) => r.scopeKey === k))
        .find((r) => r !== undefined);
      if (row === undefined) return err(personaError('not_found', `No persona named "${name}".`));
      return visible(actor, row.id);
    },

    async list(actor) {
      await ready();
      return index.search(actor, '', Number.MAX_SAFE_INTEGER);
    },

    async search(actor, query, limit) {
      await ready();
      return index.search(actor, query, limit);
    },

    async update(actor, id, expectedVersion, input) {
      await ready();
      const persona = await editable(actor, id);
      if (!persona.ok) return persona;
      const content = validContent(input);
      if (!content.ok) return content;
      const replaced = await replaceContent(persona.value, expectedVersion, content.value);
      return replaced.ok ? saved(id) : replaced;
    },

    async remove(actor, id) {
      await ready();
      const persona = await editable(actor, id);
      if (!persona.ok) return persona;
      const removed = await write(async (tx) => {
        const playing = await tx.gamePlayer.count({ where: { personaId: id, game: { status: 'running' } } });
        if (playing > 0) {
          throw new Refusal(
            personaError('in_game', `${personaName(persona.value)} is playing in a running game; delete it once the game ends.`),
          );
        }
        await tx.persona.delete({ where: { id } });
      });
      if (removed.ok) index.remove(id);
      return removed;
    },

    async duplicate(actor, id, target) {
      await ready();
      const source = await visible(actor, id);
      if (!source.ok) return source;
      const name = target.name ?? `${personaName(source.value)} (copy)`.slice(0, 60);
      const content = {
        ...source.value,
        profile: { ...source.value.profile, identity: { ...source.value.profile.identity, name } },
      };
      return this.create(actor, { scope: target.scope, content: contentOf(content) });
    },

    advanceArc: (actor, id, expectedVersion) => moveArc(actor, id, expectedVersion, advanceArc),
    resetArc: (actor, id, expectedVersion) => moveArc(actor, id, expectedVersion, (arc) => ok(resetArc(arc))),

    async render(actor, id, request = {}) {
      const persona = await visible(actor, id);
      if (!persona.ok) return persona;
      const detail = request.detail ?? false;
      const names = request.overrides ?? {};
      if (Object.keys(names).length > 0) {
        const overrides = await overridesFor(actor, persona.value, names);
        if (!overrides.ok) return overrides;
        return renderPersona(persona.value, { detail, overrides: overrides.value });
      }
      const row = await prisma.persona.findUnique({
        where: { id },
        select: { compiledSummary: true, compiledDetail: true, version: true },
      });
      const compiled = renderedPersonaSchema.safeParse(detail ? row?.compiledDetail : row?.compiledSummary);
      if (compiled.success && row?.version === persona.value.version) return ok(compiled.data);
      const rendered = renderPersona(persona.value, { detail });
      if (!rendered.ok) return rendered;
      // Saved only if nobody changed the persona meanwhile; a stale copy is never stored.
      await prisma.persona.updateMany({
        where: { id, version: persona.value.version },
        data: { [detail ? 'compiledDetail' : 'compiledSummary']: rendered.value, compiledAt: new Date() },
      });
      return rendered;
    },

    async findPart(actor, name) {
      const part = await findVisiblePart(visibleScopeKeys(actor), name);
      return part === null ? err(personaError('not_found', `No part named "${name}".`)) : ok(part);
    },

    async updatePart(actor, name, input) {
      const parsed = partSchema.safeParse(input);
      if (!parsed.success) return err(personaError('invalid', `The part is invalid: ${describeIssues(parsed.error)}.`));
      const part = parsed.data;
      if (nameKey(part.name) !== nameKey(name))
        return err(personaError('invalid', 'A part keeps its name; create a new part to rename it.'));
      const rows = await prisma.personaPart.findMany({ where: { nameKey: nameKey(name), scopeKey: { in: visibleScopeKeys(actor) } } });
      const row = visibleScopeKeys(actor)
        .map((k) => rows.find((r) => r.scopeKey === k))
        .find((r) => r !== undefined);
      if (row === undefined) return err(personaError('not_found', `No part named "${name}".`));
      const { scope, ownerId } = scopeOfKey(row.scopeKey);
      const allowed = mayEdit(actor, { scope, ownerId: ownerId ?? row.ownerId, builtIn: row.builtIn }, 'part');
      if (!allowed.ok) return allowed;
      if (part.type !== row.type) return err(personaError('invalid', `"${row.name}" is a ${row.type} part; its type cannot change.`));
      const written = await write(async (tx) => {
        await tx.personaPart.update({ where: { id: row.id }, data: { summary: part.summary, content: part.content } });
        await tx.persona.updateMany({
          where: { OR: [{ parts: { some: { partId: row.id } } }, { arc: { stages: { some: { parts: { some: { partId: row.id } } } } } }] },
          data: STALE_COMPILED,
        });
      });
      return written.ok ? ok(part) : written;
    },

    async upsertBuiltIn(input) {
      await ready();
      const content = validContent(input);
      if (!content.ok) return content;
      const existing = await prisma.persona.findUnique({
        where: { scopeKey_nameKey: { scopeKey: 'everyone', nameKey: nameKey(personaName(content.value)) } },
        select: { id: true, builtIn: true },
      });
      if (existing === null) {
        const created = await createIn({ scope: { kind: 'everyone' }, ownerId: STARTER_OWNER, builtIn: true }, content.value);
        if (!created.ok) return created;
        await saved(created.value);
        return ok('created');
      }
      if (!existing.builtIn) {
        return err(personaError('name_taken', `A user persona already uses the starter name "${personaName(content.value)}".`));
      }
      const current = await load(existing.id);
      if (current === null) throw new Error(`persona ${existing.id} vanished`);
      if (exportPersonaJson(current) === exportPersonaJson(content.value)) return ok('unchanged');
      const replaced = await replaceContent(current, current.version, content.value);
      if (!replaced.ok) return replaced;
      await saved(existing.id);
      return ok('updated');
    },
  };
}

function validContent(input: unknown): Result<PersonaContent, PersonaError> {
  const parsed = personaContentSchema.safeParse(input);
  if (!parsed.success) return err(personaError('invalid', `The persona is invalid: ${describeIssues(parsed.error)}.`));
  // The hard cap on length applies to both renderings.
  for (const detail of [false, true]) {
    const rendered = renderPersona(parsed.data, { detail });
    if (!rendered.ok) return rendered;
  }
  return ok(parsed.data);
}

function contentOf(persona: PersonaContent): PersonaContent {
  const { profile, avatarUrl, model, tags, notes, parts, traits, arc, card } = persona;
  return { profile, avatarUrl, ...(model && { model }), tags, notes, parts, traits, arc, card };
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

function staleError(current: number, expected: number): PersonaError {
  return personaError(
    'stale',
    `Someone saved this persona since you opened it (version ${current}, yours was ${expected}); reload it and apply your change again.`,
  );
}

async function refuseTakenName(tx: Tx, key: string, name: string, selfId: string | null): Promise<void> {
  const taken = await tx.persona.findUnique({
    where: { scopeKey_nameKey: { scopeKey: key, nameKey: nameKey(name) } },
    select: { id: true },
  });
  if (taken !== null && taken.id !== selfId)
    throw new Refusal(personaError('name_taken', `A persona named "${name}" already exists here.`));
}

interface Owner {
  readonly key: string;
  readonly ownerId: string;
  readonly builtIn: boolean;
}

/** Links the persona's parts, traits and arc, reusing same-named identical ones in its scope or everyone's. */
async function writeComposition(tx: Tx, personaId: string, owner: Owner, content: PersonaContent): Promise<void> {
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

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
