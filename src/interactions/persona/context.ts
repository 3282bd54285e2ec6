import {
  MessageFlags,
  PermissionFlagsBits,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { TokenBudget } from '../../agents/budget.ts';
import type { EditorService } from '../../agents/editor/index.ts';
import type { PersonaStore } from '../../db/persona-store.ts';
import type { EditorChats } from '../../discord/editor-chats.ts';
import type { Logger } from '../../log.ts';
import type { Actor } from '../../persona/permissions.ts';
import type { Persona, Scope } from '../../persona/persona.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import type { Result } from '../../result.ts';
import type { PersonaModels } from './models.ts';

/** What the /persona handlers share. */
export interface PersonaDeps {
  readonly personas: PersonaStore;
  readonly models: PersonaModels;
  /** The server's daily token budget, the games' one: every model call here is checked against it and recorded. */
  readonly budget: Pick<TokenBudget, 'allows' | 'record' | 'spentMessage'>;
  readonly log: Logger;
  /** The persona editor agent and its Discord conversations; null where the bot runs without them. */
  readonly editor?: EditorService | null;
  readonly chats?: EditorChats | null;
}

export type PersonaInteraction = ChatInputCommandInteraction | ButtonInteraction | ModalSubmitInteraction;

/** Every refusal: only the person who asked sees it, and nothing changed. Works before and after a deferral. */
export async function refuse(i: PersonaInteraction, message: string): Promise<void> {
  if (i.deferred || i.replied) {
    await i.editReply({ content: message, embeds: [], components: [], files: [], allowedMentions: NO_MENTIONS });
    return;
  }
  await i.reply({ content: message, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}

export function actorOf(i: PersonaInteraction | AutocompleteInteraction): Actor {
  return { userId: i.user.id, guildId: i.guildId, canManageServer: i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false };
}

/** The `scope` option: private unless "server" was picked. */
export function scopeOption(i: ChatInputCommandInteraction): Scope {
  return i.options.getString('scope') === 'server' && i.guildId !== null ? { kind: 'server', guildId: i.guildId } : { kind: 'private' };
}

/** A server scope asked for in DMs is refused, not silently made private. */
export function scopeRefusal(i: ChatInputCommandInteraction): string | null {
  return i.options.getString('scope') === 'server' && i.guildId === null
    ? 'Server personas are made in a server: use this command there, not in DMs.'
    : null;
}

export function describeScope(persona: Pick<Persona, 'scope' | 'builtIn'>): string {
  if (persona.builtIn) return 'built-in (read-only; duplicate it to change it)';
  if (persona.scope.kind === 'server') return 'this server';
  if (persona.scope.kind === 'private') return 'private (only you)';
  return 'everyone';
}

/**
 * What was picked or typed as a persona: autocomplete sends its id, a person may type a name.
 * The store applies visibility, so someone else's private persona is "not found", never shown.
 */
export async function findPersona(store: PersonaStore, actor: Actor, value: string): Promise<Result<Persona, string>> {
  const byId = await store.get(actor, value);
  if (byId.ok) return byId;
  const byName = await store.getByName(actor, value);
  if (byName.ok) return byName;
  return {
    ok: false,
    error: `There is no persona "${value.slice(0, 100)}" that you can use here. Pick one from the list as you type, or see \`/persona list\`.`,
  };
}
