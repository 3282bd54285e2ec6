import { ApplicationIntegrationType, InteractionContextType, SlashCommandBuilder, type ButtonInteraction } from 'discord.js';
import type { AckStyle } from '../../discord/responder.ts';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import { LOBBY_PREFIX } from '../../discord/lobby-view.ts';
import { commandData, routeCommand } from '../command.ts';
import { addAi, addAiButton, addAiSelect } from './add-ai.ts';
import { chat } from './chat.ts';
import type { MafiaDeps } from './context.ts';
import { create } from './create.ts';
import { end } from './end.ts';
import { joinButton } from './join.ts';
import { leaderboard } from './leaderboard.ts';
import { leaveButton } from './leave.ts';
import { nightSelect } from './night.ts';
import { nominate, nominateSelect } from './nominate.ts';
import { remove } from './remove.ts';
import { rules } from './rules.ts';
import { spectate } from './spectate.ts';
import { start, startButton } from './start.ts';
import { stats } from './stats.ts';
import { status } from './status.ts';
import { unvoteButton, voteSelect } from './vote.ts';
import { will, willSubmit } from './will.ts';

export type { MafiaDeps } from './context.ts';

const MAFIA = 'mafia';

/** In the order Discord lists them. */
const SUBCOMMANDS = [create, addAi, remove, start, status, nominate, spectate, end, rules, will, stats, leaderboard];

/** A lobby button of an older version of the bot is told so privately. */
const NO_LONGER_ACK: AckStyle = 'ephemeral';

/** The lobby message's buttons, `lobby:<action>:<game>`, by action. */
const LOBBY_BUTTONS = [joinButton, leaveButton, addAiButton, startButton];

/**
 * /mafia. Offered in DMs too (contexts Guild + BotDM): `rules` works there, and the subcommands
 * that need a server (every other, `will`, `stats` and `leaderboard` included) say so instead of vanishing from the menu.
 */
export const mafiaCommandData = commandData(
  new SlashCommandBuilder()
    .setName(MAFIA)
    .setDescription('Play Mafia with people and AI personas')
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall),
  SUBCOMMANDS,
);

/** Every /mafia subcommand, lobby component, night menu, vote control and the will form; and the messages typed in a game. */
export function registerMafia(router: InteractionRouter, deps: MafiaDeps): void {
  routeCommand(router, MAFIA, deps, {
    subcommands: SUBCOMMANDS,
    buttons: [unvoteButton],
    selects: [addAiSelect, nightSelect, nominateSelect, voteSelect],
    modals: [willSubmit],
  });
  const lobbyButton = (i: ButtonInteraction) => LOBBY_BUTTONS.find((b) => b.id === customIdArgs(i.customId)[0]);
  router.onButton(
    LOBBY_PREFIX,
    async (i, responder) => {
      const button = lobbyButton(i);
      if (button) return button.handle(i, deps, responder);
      await responder.as(NO_LONGER_ACK).privately('This button is no longer in use.');
    },
    (i) => lobbyButton(i)?.ack ?? NO_LONGER_ACK,
  );
  router.onMessage((m) => chat(m, deps));
}
