import type { ChatInputCommandInteraction } from 'discord.js';
import type { SettingsInput } from '../../game/index.ts';
import { lobbyMessage } from '../../discord/lobby-view.ts';
import { err, ok, type Result } from '../../result.ts';
import { mafiaCommand, NEEDS_SERVER, seatName } from './context.ts';
import { guildOnly } from './preconditions.ts';
import { withinGrace } from '../handlers.ts';
import { parseRoleList } from './role-list.ts';
import { addRuleOptions, rulesFrom } from './rule-options.ts';
import { channelReadiness } from './channel-permissions.ts';

/** The options of /mafia create as engine settings; only what was given, the engine fills the defaults. */
function settingsFrom(i: ChatInputCommandInteraction): Result<SettingsInput, string> {
  const rules = rulesFrom(i.options);
  const rolesText = i.options.getString('roles');
  if (rolesText === null) return ok({ rules });
  const roles = parseRoleList(rolesText);
  if (!roles.ok) return err(roles.error);
  return ok({ setup: { kind: 'custom', roles: roles.value }, rules });
}

/** /mafia create: one open game per channel; the host takes the first seat and the lobby embed is posted. */
export const create = mafiaCommand.subcommand({
  name: 'create',
  definition: (s) =>
    addRuleOptions(
      s
        .setDescription('Open a lobby in this channel')
        .addStringOption((o) =>
          o
            .setName('roles')
            .setDescription('Custom roles, e.g. "mafia, detective, doctor, townsperson x2" (default: preset)')
            .setMaxLength(500),
        ),
    ),
  ack: 'public',
  preconditions: [guildOnly(NEEDS_SERVER)],
  run: async (i, { deps, guildId, ack, reply }) => {
    const readiness = channelReadiness(i.appPermissions);
    if (readiness && 'refuse' in readiness) return reply.privately(readiness.refuse);
    const settings = settingsFrom(i);
    if (!settings.ok) return reply.privately(settings.error);
    const host = { id: i.user.id, name: seatName(i) };
    const draft = deps.liveGames.draft({ channelId: i.channelId, guildId, host, settings: settings.value });
    if (!draft.ok) return reply.privately(draft.error);
    // Storing the game may wait behind every other game's writes: acknowledged if it takes long
    // (Discord's 3 s); usually it does not, and the lobby is the answer itself (one call, not two).
    const creating = deps.liveGames.create(draft.value);
    const soon = await withinGrace(creating);
    if (soon === null) await ack();
    const created = soon ?? (await creating);
    // Only a game stored by an earlier process gets here; the refusal stays private.
    if (!created.ok) return reply.privately(created.error);
    const game = created.value;
    const lobby = await reply.answer(lobbyMessage(game.state, game.hostId));
    game.lobbyMessageId = lobby?.id ?? null;
    if (readiness) await reply.privately(readiness.note);
  },
});
