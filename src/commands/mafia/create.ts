import type { ChatInputCommandInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import type { RulesInput, SettingsInput } from '../../game/index.ts';
import { lobbyMessage } from '../../discord/lobby-view.ts';
import type { InteractionRouter } from '../../discord/router.ts';
import { err, ok, type Result } from '../../result.ts';
import { MAFIA } from './definition.ts';
import { NEEDS_SERVER, refuse, seatName, type MafiaDeps } from './context.ts';
import { parseRoleList } from './role-list.ts';

/** The options of /mafia create as engine settings; only what was given, the engine fills the defaults. */
export function settingsFrom(i: ChatInputCommandInteraction): Result<SettingsInput, string> {
  const rules: RulesInput = {};
  const int = (name: string) => i.options.getInteger(name) ?? undefined;
  const bool = (name: string) => i.options.getBoolean(name) ?? undefined;
  const set = <K extends keyof RulesInput>(key: K, value: RulesInput[K] | undefined) => {
    if (value !== undefined) rules[key] = value;
  };
  set('nightSeconds', int('night-seconds'));
  set('daySeconds', int('day-seconds'));
  set('voteSeconds', int('vote-seconds'));
  set('vigilanteShots', int('vigilante-shots'));
  const mode = i.options.getString('vote-mode');
  if (mode === 'plurality' || mode === 'majority') rules.voteMode = mode;
  set('doctorSelfProtect', bool('doctor-self-protect'));
  set('doctorRepeatProtect', bool('doctor-repeat-protect'));
  set('revealRoleOnDeath', bool('reveal-roles'));
  set('allowNoLynch', bool('no-lynch'));
  set('lastWills', bool('last-wills'));
  set('nightOneKill', bool('night-one-kill'));
  const rolesText = i.options.getString('roles');
  if (rolesText === null) return ok({ rules });
  const roles = parseRoleList(rolesText);
  if (!roles.ok) return err(roles.error);
  return ok({ setup: { kind: 'custom', roles: roles.value }, rules });
}

/** /mafia create: one open game per channel; the host takes the first seat and the lobby embed is posted. */
export function registerCreate(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'create', async (i) => {
    if (!i.inGuild()) return refuse(i, NEEDS_SERVER);
    const settings = settingsFrom(i);
    if (!settings.ok) return refuse(i, settings.error);
    const created = await deps.tables.create({ channelId: i.channelId, guildId: i.guildId, hostId: i.user.id, settings: settings.value });
    if (!created.ok) return refuse(i, created.error);
    const table = created.value;
    const name = seatName(i);
    await table.submit((s, at) => engine.join(s, { player: { id: i.user.id, name, kind: 'human', userId: i.user.id }, at }));
    const response = await i.reply({ ...lobbyMessage(table.state, table.hostId), withResponse: true });
    table.lobbyMessageId = response.resource?.message?.id ?? null;
  });
}
