import { EmbedBuilder } from 'discord.js';
import { DEFAULT_SETTINGS, getRole, TRIAL_DAY_PLAYERS, type Rules, type Settings } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mafiaCommand } from './context.ts';
import { optionName } from './rule-options.ts';

const onOff = (v: boolean) => (v ? 'on' : 'off');

/** Every switch in words a player reads, with the /mafia create option that sets it. */
function ruleLines(r: Rules): string[] {
  return [
    `Doctor may protect themself: **${onOff(r.doctorSelfProtect)}** (\`${optionName('doctorSelfProtect')}\`)`,
    `Doctor may protect the same player twice in a row: **${onOff(r.doctorRepeatProtect)}** (\`${optionName('doctorRepeatProtect')}\`)`,
    `Roles revealed on death: **${onOff(r.revealRoleOnDeath)}** (\`${optionName('revealRoleOnDeath')}\`)`,
    dayLine(r),
    `Vote: **${r.voteMode}** (${r.voteMode === 'plurality' ? 'most votes lynches, a tie lynches nobody' : 'more than half of the living'}) (\`${optionName('voteMode')}\`)`,
    `Vote to lynch nobody: **${onOff(r.allowNoLynch)}** (\`${optionName('allowNoLynch')}\`)`,
    `Last wills: **${onOff(r.lastWills)}** (\`${optionName('lastWills')}\`)`,
    `Kills on night one: **${onOff(r.nightOneKill)}** (\`${optionName('nightOneKill')}\`)`,
    `Vigilante shots: **${r.vigilanteShots}** (\`${optionName('vigilanteShots')}\`)`,
    `Someone who leaves the server: **${r.leaverSeat === 'ai' ? 'an AI plays on in their seat' : 'out, their role shown'}** (\`${optionName('leaverSeat')}\`)`,
    `Night **${r.nightSeconds}s** · Dawn ${r.dawnSeconds}s · Day **${r.daySeconds}s** · Vote **${r.voteSeconds}s** · Last words ${r.lastWordsSeconds}s`,
    `Spectators in the graveyard thread (\`/mafia spectate\`): **${onOff(r.spectators)}** (\`${optionName('spectators')}\`)`,
    `A draw after ${r.maxQuietCycles} day–night cycles in a row without a death`,
  ];
}

/** The day style, and a trial day's settings when it can be one. */
function dayLine(r: Rules): string {
  const style =
    r.dayStyle === 'auto'
      ? `auto (trial days for preset games of ${TRIAL_DAY_PLAYERS} or more, open otherwise)`
      : r.dayStyle === 'trial'
        ? 'trial (nominate, the accused defend, the town votes among them)'
        : 'open (talk, then a vote on anyone alive)';
  const trial =
    r.dayStyle === 'open'
      ? ''
      : ` · a nomination needs a second: **${onOff(r.nominationSeconds)}** (\`${optionName('nominationSeconds')}\`) · at most **${r.maxNominees}** accused a day (\`${optionName('maxNominees')}\`) · **${r.defenseSeconds}s** each defense (\`${optionName('defenseSeconds')}\`)`;
  return `Day: **${style}** (\`${optionName('dayStyle')}\`)${trial}`;
}

function rulesEmbed(settings: Settings, title: string): EmbedBuilder {
  const setup =
    settings.setup.kind === 'preset'
      ? 'Preset: about one Mafia per 3.5 players; Godfather from 9, Jester from 8, Vigilante from 10 players.'
      : `Custom: ${settings.setup.roles.map((r) => getRole(r).name).join(', ')}`;
  return new EmbedBuilder()
    .setTitle(title)
    .setColor(COLOURS.info)
    .setDescription(ruleLines(settings.rules).join('\n'))
    .addFields({ name: 'Roles', value: setup });
}

/** /mafia rules: this channel's game, or the defaults (also in DMs, where no game can be). */
export const rules = mafiaCommand.subcommand({
  name: 'rules',
  definition: (s) => s.setDescription("This channel's game rules, or the defaults"),
  // The channel's game may still be loading after a restart: acknowledged if that takes long (Discord's 3 s).
  ackFirst: 'if-slow',
  preconditions: [],
  run: async (i, { deps, reply }) => {
    const game = i.inGuild() ? await deps.liveGames.inChannel(i.channelId) : null;
    const embed = game
      ? rulesEmbed(game.state.settings, 'Rules of this game')
      : rulesEmbed(DEFAULT_SETTINGS, 'Default rules (`/mafia create` options change them)');
    await reply.answer({ embeds: [embed], allowedMentions: NO_MENTIONS });
  },
});
