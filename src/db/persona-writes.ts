import type { PersonaCaps } from '../config.ts';
import { err, ok, type Result } from '../result.ts';
import { describeIssues, personaError, type PersonaError } from '../persona/errors.ts';
import { mayCreateIn, type Actor } from '../persona/permissions.ts';
import { personaName, scopeSchema, type Persona, type PersonaContent, type Scope } from '../persona/persona.ts';
import type { PrismaClient } from './generated/client.ts';
import type { PersonaAccess } from './persona-access.ts';
import { capRefusal } from './persona-caps.ts';
import { createIn, replaceContent, validContent } from './persona-content-writes.ts';
import { Refusal, writePersonas } from './persona-transaction.ts';

/** Creating, changing, copying and deleting the actor's own personas. */
export interface PersonaWrites {
  /** Refused as `too_many` past the owner's or the server's cap on personas. */
  create(actor: Actor, input: { scope: Scope; content: unknown }): Promise<Result<Persona, PersonaError>>;
  /** Whether the actor may create one more persona in `scope` now (the caps); asked before work a refusal would waste. */
  roomFor(actor: Actor, scope: Scope): Promise<Result<void, PersonaError>>;
  /** Refused as `stale` unless `expectedVersion` is the stored version. */
  update(actor: Actor, id: string, expectedVersion: number, content: unknown): Promise<Result<Persona, PersonaError>>;
  /** Refused while the persona sits in a running game or an open lobby (its seat there must be freed first). */
  remove(actor: Actor, id: string): Promise<Result<void, PersonaError>>;
  /** An editable copy owned by the actor (the way to customise a starter persona). */
  duplicate(actor: Actor, id: string, target: { scope: Scope; name?: string }): Promise<Result<Persona, PersonaError>>;
}

export function personaWrites(prisma: PrismaClient, access: PersonaAccess, caps: PersonaCaps): PersonaWrites {
  return {
    async create(actor, input) {
      await access.ready();
      const scope = scopeSchema.safeParse(input.scope);
      if (!scope.success) return err(personaError('invalid', `scope: ${describeIssues(scope.error)}`));
      const allowed = mayCreateIn(actor, scope.data);
      if (!allowed.ok) return allowed;
      const content = validContent(input.content);
      if (!content.ok) return content;
      const created = await createIn(prisma, { scope: scope.data, ownerId: actor.userId, builtIn: false }, content.value, caps);
      return created.ok ? access.saved(created.value) : created;
    },

    async roomFor(actor, scope) {
      const refusal = await capRefusal(prisma, caps, { ownerId: actor.userId, guildId: scope.kind === 'server' ? scope.guildId : null });
      return refusal === null ? ok(undefined) : err(refusal);
    },

    async update(actor, id, expectedVersion, input) {
      await access.ready();
      const persona = await access.editable(actor, id);
      if (!persona.ok) return persona;
      const content = validContent(input);
      if (!content.ok) return content;
      const replaced = await replaceContent(prisma, persona.value, expectedVersion, content.value);
      return replaced.ok ? access.saved(id) : replaced;
    },

    async remove(actor, id) {
      await access.ready();
      const persona = await access.editable(actor, id);
      if (!persona.ok) return persona;
      const removed = await writePersonas(prisma, async (tx) => {
        const seats = await tx.gamePlayer.findMany({
          where: { personaId: id, game: { status: { in: ['running', 'lobby'] } } },
          select: { game: { select: { status: true } } },
        });
        if (seats.some((seat) => seat.game.status === 'running')) {
          throw new Refusal(
            personaError('in_game', `${personaName(persona.value)} is playing in a running game; delete it once the game ends.`),
          );
        }
        if (seats.length > 0) {
          throw new Refusal(
            personaError('in_game', `${personaName(persona.value)} is seated in an open lobby; free its seat there first.`),
          );
        }
        await tx.persona.delete({ where: { id } });
      });
      if (removed.ok) access.index.remove(id);
      return removed;
    },

    async duplicate(actor, id, target) {
      await access.ready();
      const source = await access.visible(actor, id);
      if (!source.ok) return source;
      const name = target.name ?? `${personaName(source.value)} (copy)`.slice(0, 60);
      const content = {
        ...source.value,
        profile: { ...source.value.profile, identity: { ...source.value.profile.identity, name } },
      };
      return this.create(actor, { scope: target.scope, content: contentOf(content) });
    },
  };
}

function contentOf(persona: PersonaContent): PersonaContent {
  const { profile, avatarUrl, model, tags, notes, parts, traits, arc, card } = persona;
  return { profile, avatarUrl, ...(model && { model }), tags, notes, parts, traits, arc, card };
}
