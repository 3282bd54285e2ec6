import { nameOf } from '../../discord/presenters/format.ts';
import { NIGHT_SELECT, SKIP_VALUE } from '../../discord/presenters/night-action.ts';
import * as engine from '../../game/index.ts';
import { mafiaCommand } from './context.ts';
import { changeGameAnsweringOnceStored } from './game-change.ts';
import { gameNamed, stillOpen } from './preconditions.ts';

/** A pick from the night menu in a DM: the engine decides at once whether it stands, and the answer says so at once. */
export const nightSelect = mafiaCommand.select({
  id: NIGHT_SELECT,
  preconditions: [gameNamed, stillOpen('This night menu is from a night that is over; nothing changed. Use the newest menu in your DMs.')],
  run: (i, found) => {
    const value = i.values[0];
    const targetId = !value || value === SKIP_VALUE ? null : value;
    return changeGameAnsweringOnceStored(
      found,
      (s, at) => engine.act(s, { actorId: i.user.id, targetId, at }),
      ({ state }) => (targetId ? `Noted: ${nameOf(state, targetId)}. You can change your mind until dawn.` : 'Noted: nothing tonight.'),
    );
  },
});
