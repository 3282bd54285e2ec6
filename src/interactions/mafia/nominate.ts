import { nameOf } from '../../discord/presenters/format.ts';
import { NOMINATE_SELECT } from '../../discord/presenters/nominations.ts';
import * as engine from '../../game/index.ts';
import type { Change } from '../../game/index.ts';
import { mafiaCommand } from './context.ts';
import { changeGameAnsweringOnceStored } from './game-change.ts';
import { gameHere, gameNamed, stillOpen } from './preconditions.ts';

const NOMINATIONS_CLOSED = 'These nominations are closed: use the nominations message of the current day.';

/** What the nominator hears once their nomination (or second) is stored. */
function nominated(change: Change, targetId: string): string {
  const { state } = change;
  const name = nameOf(state, targetId);
  const seconded = change.events.some((e) => e.type === 'nomination_seconded');
  if (seconded) return `You seconded the nomination of ${name}: ${name} stands accused.`;
  return engine.nominees(state).includes(targetId)
    ? `You nominated ${name}: ${name} stands accused.`
    : `You nominated ${name}; it needs a second.`;
}

/** The nominations message's menu: nominate a player, or second their nomination. */
export const nominateSelect = mafiaCommand.select({
  id: NOMINATE_SELECT,
  preconditions: [gameNamed, stillOpen(NOMINATIONS_CLOSED)],
  run: (i, found) => {
    const targetId = i.values[0] ?? '';
    return changeGameAnsweringOnceStored(
      found,
      (s, at) => engine.nominate(s, { playerId: i.user.id, targetId, at }),
      (change) => nominated(change, targetId),
    );
  },
});

/** /mafia nominate player: in a trial day's discussion, put a player on trial or second their nomination. */
export const nominate = mafiaCommand.subcommand({
  name: 'nominate',
  definition: (s) =>
    s
      .setDescription('Nominate a player for trial, or second a nomination (trial days)')
      .addStringOption((o) =>
        o.setName('player').setDescription('Whom to put on trial').setRequired(true).setAutocomplete(true).setMaxLength(100),
      ),
  preconditions: [gameHere],
  run: async (i, found) => {
    const wanted = i.options.getString('player', true).trim();
    const target = found.game.state.players.find((p) => p.id === wanted || p.name.toLowerCase() === wanted.toLowerCase());
    if (!target) return found.reply.privately(`Nobody called "${wanted}" is playing in this game.`);
    await changeGameAnsweringOnceStored(
      found,
      (s, at) => engine.nominate(s, { playerId: i.user.id, targetId: target.id, at }),
      (change) => nominated(change, target.id),
    );
  },
  // Whom the person may nominate or second now.
  autocomplete: async (i, deps) => {
    const game = i.inGuild() ? await deps.liveGames.inChannel(i.channelId) : null;
    const q = i.options.getFocused().toLowerCase();
    const options = game ? engine.legalNominees(game.state, i.user.id).filter((p) => p.name.toLowerCase().includes(q)) : [];
    await i.respond(options.slice(0, 25).map((p) => ({ name: p.name, value: p.id })));
  },
});
