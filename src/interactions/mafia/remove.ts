import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { MessageFlags } from 'discord.js';
import * as engine from '../../game/index.ts';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { MAFIA } from './definition.ts';
import { HOST_ONLY, isHost, refuse, tableHere, type MafiaDeps } from './context.ts';

/** /mafia remove player: the host frees a lobby seat (a person or an AI); the option is a player id or a seated name. */
async function remove(i: ChatInputCommandInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableHere(i, deps);
  if (!table) return;
  if (!isHost(table, i.user.id)) return refuse(i, HOST_ONLY);
  if (table.state.phase !== 'lobby') return refuse(i, 'The game has started; players can only be removed in the lobby.');
  const wanted = i.options.getString('player', true).trim();
  const player = table.state.players.find((p) => p.id === wanted || p.name.toLowerCase() === wanted.toLowerCase());
  if (!player) return refuse(i, `Nobody called "${wanted}" is seated in this game.`);
  const left = await table.submit((s, at) => engine.leave(s, { playerId: player.id, at }));
  if (!left.ok) return refuse(i, left.error.message);
  await i.reply({ content: `${player.name} was removed from the lobby.`, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}

async function seated(i: AutocompleteInteraction, deps: MafiaDeps): Promise<void> {
  const table = i.inGuild() ? await deps.tables.inChannel(i.channelId) : null;
  const q = i.options.getFocused().toLowerCase();
  const players = table?.state.players.filter((p) => p.name.toLowerCase().includes(q)) ?? [];
  await i.respond(players.slice(0, 25).map((p) => ({ name: `${p.name}${p.kind === 'ai' ? ' (AI)' : ''}`, value: p.id })));
}

export function registerRemove(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'remove', (i) => remove(i, deps));
  router.onAutocomplete(MAFIA, 'remove', (i) => seated(i, deps));
}
