import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from './errors.ts';
import type { Scope } from './persona.ts';

/** Who asks, from the Discord interaction: the user, the server it came from, and its permission. */
export interface Actor {
  readonly userId: string;
  /** null in DMs. */
  readonly guildId: string | null;
  /** Discord's Manage Server in `guildId`. */
  readonly canManageServer: boolean;
}

/** Anything with an owner and a scope: personas, parts, traits, arcs. */
export interface Owned {
  readonly ownerId: string;
  readonly scope: Scope;
  readonly builtIn: boolean;
}

export const STARTER_OWNER = 'dramatis';

/** The key names are unique under: one per server, one per user, one for everyone. */
export function scopeKey(scope: Scope, ownerId: string): string {
  switch (scope.kind) {
    case 'everyone':
      return 'everyone';
    case 'server':
      return `server:${scope.guildId}`;
    case 'private':
      return `private:${ownerId}`;
  }
}

/** The scope keys an actor sees, most specific first (a name resolves in that order). */
export function visibleScopeKeys(actor: Actor): string[] {
  return [`private:${actor.userId}`, ...(actor.guildId ? [`server:${actor.guildId}`] : []), 'everyone'];
}

export function canSee(actor: Actor, item: Owned): boolean {
  switch (item.scope.kind) {
    case 'everyone':
      return true;
    case 'server':
      return actor.guildId === item.scope.guildId;
    case 'private':
      return actor.userId === item.ownerId;
  }
}

/** Whether the actor may put something new into a scope. */
export function mayCreateIn(actor: Actor, scope: Scope): Result<void, PersonaError> {
  if (scope.kind !== 'server') return ok(undefined);
  if (actor.guildId !== scope.guildId) return err(personaError('forbidden', 'You can only add server personas to the server you are in.'));
  if (!actor.canManageServer) return err(personaError('forbidden', 'Adding a server persona needs the Manage Server permission.'));
  return ok(undefined);
}

/** Only the owner edits a private (or published) persona; a server persona needs Manage Server; the starter pack is read-only. */
export function mayEdit(actor: Actor, item: Owned, what = 'persona'): Result<void, PersonaError> {
  if (item.builtIn) {
    return err(personaError('read_only', `Starter ${what}s are read-only; duplicate it and edit the copy.`));
  }
  if (!canSee(actor, item)) return err(personaError('not_found', `No such ${what}.`));
  if (item.scope.kind === 'server') {
    return actor.canManageServer
      ? ok(undefined)
      : err(personaError('forbidden', `Editing a server ${what} needs the Manage Server permission.`));
  }
  return actor.userId === item.ownerId ? ok(undefined) : err(personaError('forbidden', `Only the owner can edit this ${what}.`));
}
