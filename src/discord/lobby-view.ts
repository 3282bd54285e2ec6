import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, type BaseMessageOptions } from 'discord.js';
import {
  getRole,
  MIN_PRESET_PLAYERS,
  MAX_PRESET_PLAYERS,
  MAX_PLAYERS,
  TRIAL_DAY_PLAYERS,
  dayStyleFor,
  type GameState,
} from '../game/index.ts';
import { COLOURS, NO_MENTIONS, plainName } from './presenters/format.ts';

/** Custom ids of the lobby buttons: `lobby:<action>:<gameId>`, so a click names its game even after a restart. */
export const LOBBY_PREFIX = 'lobby';
type LobbyAction = 'join' | 'leave' | 'ai' | 'start';

function lobbyButtonId(action: LobbyAction, gameId: string): string {
  return `${LOBBY_PREFIX}:${action}:${gameId}`;
}

function setupLine(state: GameState): string {
  const { setup } = state.settings;
  if (setup.kind === 'preset') return `Preset roles for ${MIN_PRESET_PLAYERS}–${MAX_PRESET_PLAYERS} players`;
  return `Custom: ${setup.roles.map((r) => getRole(r).name).join(', ')} (${setup.roles.length} players)`;
}

/** How many players the setup starts with: a range for the preset roles, the list's length for custom ones. */
function startsWith(state: GameState): { min: number; max: number } {
  const { setup } = state.settings;
  return setup.kind === 'preset'
    ? { min: MIN_PRESET_PLAYERS, max: MAX_PRESET_PLAYERS }
    : { min: setup.roles.length, max: setup.roles.length };
}

/** The seats taken, what the table holds, and how far the lobby is from a game the setup can start. */
function seatsLine(state: GameState): string {
  const seated = state.players.length;
  const { min, max } = startsWith(state);
  const toStart =
    seated < min
      ? `${min - seated} more to start`
      : seated > max
        ? `${seated - max} too many to start (the roles are for ${min === max ? min : `${min}–${max}`})`
        : 'Ready to start';
  return `${seated} seated (the table holds ${MAX_PLAYERS})\n${toStart}`;
}

/** The lobby embed: who sits, the setup, and the buttons while the lobby is open. */
/** How the days run: open, trial, or (auto, in the lobby) which one this table will get as it stands. */
function dayStyleLine(state: GameState): string {
  const { dayStyle } = state.settings.rules;
  if (dayStyle === 'open') return 'Open: talk, then vote on anyone';
  if (dayStyle === 'trial') return 'Trial: nominate, defend, vote among the accused';
  return `Auto: ${dayStyleFor(state)} days at ${state.players.length} seated (trial from ${TRIAL_DAY_PLAYERS} with the preset roles)`;
}

export function lobbyMessage(state: GameState, hostId: string): BaseMessageOptions {
  const { rules } = state.settings;
  const seated = state.players.map(
    (p, i) => `${i + 1}. ${plainName(p.name)}${p.kind === 'ai' ? ' 🤖' : ''}${p.userId === hostId ? ' (host)' : ''}`,
  );
  const open = state.phase === 'lobby';
  const embed = new EmbedBuilder()
    .setTitle(open ? 'Mafia: lobby open' : state.phase === 'ended' ? 'Mafia: game over' : 'Mafia: game started')
    .setColor(COLOURS.info)
    .setDescription(seated.length > 0 ? seated.join('\n') : 'Nobody has joined yet.')
    .addFields(
      { name: 'Setup', value: setupLine(state) },
      { name: 'Timing', value: `Night ${rules.nightSeconds}s · Day ${rules.daySeconds}s · Vote ${rules.voteSeconds}s`, inline: true },
      { name: 'Seats', value: seatsLine(state), inline: true },
      { name: 'Day', value: dayStyleLine(state), inline: true },
      { name: 'Graveyard', value: rules.spectators ? 'The dead, and spectators (`/mafia spectate`)' : 'The dead only', inline: true },
    )
    .setFooter({ text: open ? 'Join, then the host starts. /mafia rules shows every switch.' : `Game ${state.id}` });
  if (!open) return { embeds: [embed], components: [], allowedMentions: NO_MENTIONS };
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(lobbyButtonId('join', state.id)).setLabel('Join').setStyle(ButtonStyle.Success),
    new ButtonBuilder().setCustomId(lobbyButtonId('leave', state.id)).setLabel('Leave').setStyle(ButtonStyle.Secondary),
    new ButtonBuilder().setCustomId(lobbyButtonId('ai', state.id)).setLabel('Add AI').setStyle(ButtonStyle.Primary),
    new ButtonBuilder().setCustomId(lobbyButtonId('start', state.id)).setLabel('Start').setStyle(ButtonStyle.Danger),
  );
  return { embeds: [embed], components: [row], allowedMentions: NO_MENTIONS };
}
