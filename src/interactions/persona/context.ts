import { PermissionFlagsBits, type AutocompleteInteraction, type RepliableInteraction } from 'discord.js';
import type { TokenBudget } from '../../agents/budget.ts';
import type { EditorService } from '../../agents/editor/index.ts';
import type { PersonaStore } from '../../db/persona-store.ts';
import type { EditorChats } from '../../discord/editor-chats.ts';
import type { LiveGames } from '../../discord/live-games.ts';
import type { Logger } from '../../log.ts';
import type { Actor } from '../../persona/permissions.ts';
import type { Persona } from '../../persona/persona.ts';
import { handlersOf } from '../handlers.ts';
import type { PersonaModels } from './models.ts';

/** What the /persona handlers share. */
export interface PersonaDeps {
  readonly personas: PersonaStore;
  readonly models: PersonaModels;
  /** The daily budgets (the server's, the games' one, or the DMs'; and the person's): every model call here is checked against them and recorded. */
  readonly budget: Pick<TokenBudget, 'refusal' | 'record'>;
  readonly log: Logger;
  /** The persona editor agent and its Discord conversations; null where the bot runs without them. */
  readonly editor?: EditorService | null;
  readonly chats?: EditorChats | null;
  /** The games, whose lobby seats a deleted persona gives up; null where the bot runs without games. */
  readonly lobbies?: Pick<LiveGames, 'freePersonaSeat'> | null;
}

/** How the /persona modules declare their handlers; every refusal goes to the person alone (`reply.privately`), and nothing changed. */
export const personaCommand = handlersOf<PersonaDeps>();

export function actorOf(i: RepliableInteraction | AutocompleteInteraction): Actor {
  return { userId: i.user.id, guildId: i.guildId, canManageServer: i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false };
}

export function describeScope(persona: Pick<Persona, 'scope' | 'builtIn'>): string {
  if (persona.builtIn) return 'built-in (read-only; duplicate it to change it)';
  if (persona.scope.kind === 'server') return 'this server';
  if (persona.scope.kind === 'private') return 'private (only you)';
  return 'everyone';
}
