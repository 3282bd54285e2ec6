import type { ButtonInteraction, StringSelectMenuInteraction } from 'discord.js';
import { customIdArgs } from '../../discord/router.ts';
import type { LiveGame } from '../../discord/live-game.ts';
import { err, ok } from '../../result.ts';
import type { Acknowledge } from '../handlers.ts';
import type { Nothing, Precondition } from '../precondition.ts';
import { canManageServer, HOST_ONLY, isHost, NEEDS_SERVER, type MafiaDeps, type MafiaInteraction } from './context.ts';

type Deps = { readonly deps: MafiaDeps; readonly ack: Acknowledge };
type HasGame = { readonly game: LiveGame };

const NO_GAME = 'There is no game in this channel. Open one with `/mafia create`.';
const GAME_OVER = 'That game is over; this menu no longer does anything.';

/** Used in a server, not in a DM; `message` says why the command needs one. */
export function guildOnly(message: string): Precondition<MafiaInteraction, unknown, { readonly guildId: string }> {
  return (i) => Promise.resolve(i.inGuild() ? ok({ guildId: i.guildId }) : err(message));
}

/**
 * The open game of the interaction's channel: from memory at once; one this process does not hold
 * is looked up in the database after acknowledging (the lookup may wait behind other games' writes).
 */
export const gameHere: Precondition<MafiaInteraction, Deps, HasGame> = async (i, { deps, ack }) => {
  if (!i.inGuild()) return err(NEEDS_SERVER);
  const channelId = i.channelId;
  const game = deps.liveGames.liveInChannel(channelId) ?? (await ack().then(() => deps.liveGames.inChannel(channelId)));
  return game ? ok({ game }) : err(NO_GAME);
};

/** For lobby components: the game their custom id names (at `at`) must still be this channel's open game. */
function openGameNamed<I extends ButtonInteraction | StringSelectMenuInteraction>(at: number): Precondition<I, Deps, HasGame> {
  return async (i, found) => {
    const here = await gameHere(i, found);
    if (here.ok && here.value.game.state.id !== customIdArgs(i.customId)[at]) {
      return err('That lobby belongs to a game that is over; use the newest lobby message.');
    }
    return here;
  };
}

const lobbyMessageGame = openGameNamed<ButtonInteraction>(1);

/** The lobby message's buttons (`lobby:<action>:<game>`); after a restart the lobby message is learnt from the first click on it. */
export const lobbyButtonGame: Precondition<ButtonInteraction, Deps, HasGame> = async (i, found) => {
  const here = await lobbyMessageGame(i, found);
  if (here.ok) here.value.game.lobbyMessageId ??= i.message.id;
  return here;
};

/** A menu the lobby sent (`<prefix>:<game>`), in its channel. */
export const lobbyMenuGame = openGameNamed<StringSelectMenuInteraction>(0);

/**
 * Night menus in DMs and the vote message (`<prefix>:<game>`): the game they belong to, wherever
 * it is; from memory at once, else from the database after acknowledging.
 */
export const gameNamed: Precondition<ButtonInteraction | StringSelectMenuInteraction, Deps, HasGame> = async (i, { deps, ack }) => {
  const gameId = customIdArgs(i.customId)[0] ?? '';
  const game = deps.liveGames.liveGame(gameId) ?? (await ack().then(() => deps.liveGames.byGame(gameId)));
  return game ? ok({ game }) : err(GAME_OVER);
};

/**
 * A vote menu or night menu belongs to one day (`<prefix>:<game>:<day>`): used on a later day it
 * changes nothing and says it is closed. On its own day in another phase, the engine says why.
 * Menus sent before the stamp (no day) pass, so a restart does not break a running game's menus.
 */
export function stillOpen(closed: string): Precondition<ButtonInteraction | StringSelectMenuInteraction, HasGame, Nothing> {
  return (i, { game }) => {
    const day = customIdArgs(i.customId)[1];
    // Someone not (or no longer) playing hears that from the engine, whatever menu they use.
    const playing = game.state.players.some((p) => p.userId === i.user.id && p.alive);
    return Promise.resolve(!playing || day === undefined || Number(day) === game.state.day ? ok({}) : err(closed));
  };
}

export const hostOnly: Precondition<MafiaInteraction, HasGame, Nothing> = (i, { game }) =>
  Promise.resolve(isHost(game, i.user.id) ? ok({}) : err(HOST_ONLY));

/** The host, or anyone with Manage Server (a host who left must not block the channel). */
export const hostOrManager: Precondition<MafiaInteraction, HasGame, Nothing> = (i, { game }) =>
  Promise.resolve(
    isHost(game, i.user.id) || canManageServer(i) ? ok({}) : err('Only the host or someone with Manage Server can end this game.'),
  );

/** The game is still in its lobby; `message` says why that matters here. */
export function lobbyOpen(message: string): Precondition<MafiaInteraction, HasGame, Nothing> {
  return (_i, { game }) => Promise.resolve(game.state.phase === 'lobby' ? ok({}) : err(message));
}
