import { NO_MENTIONS, nameOf } from '../../discord/presenters/format.ts';
import { NIGHT_SELECT, SKIP_VALUE } from '../../discord/presenters/night-action.ts';
import * as engine from '../../game/index.ts';
import { mafiaCommand, refuse } from './context.ts';
import { gameNamed, stillOpen } from './preconditions.ts';

/**
 * A pick from the night menu in a DM: the engine decides whether it stands. Picks come in bursts
 * (every player at nightfall) and each waits for its game's earlier commands to be stored, so the
 * bot acknowledges first (Discord's 3 s) and then fills the ephemeral answer.
 */
export const nightSelect = mafiaCommand.select({
  id: NIGHT_SELECT,
  deferFirst: true,
  preconditions: [gameNamed, stillOpen('This night menu is from a night that is over; nothing changed. Use the newest menu in your DMs.')],
  run: async (i, { table }) => {
    const value = i.values[0];
    const targetId = !value || value === SKIP_VALUE ? null : value;
    const acted = await table.submit((s, at) => engine.act(s, { actorId: i.user.id, targetId, at }));
    if (!acted.ok) return refuse(i, acted.error.message);
    const content = targetId ? `Noted: ${nameOf(table.state, targetId)}. You can change your mind until dawn.` : 'Noted: nothing tonight.';
    await i.editReply({ content, allowedMentions: NO_MENTIONS });
  },
});
