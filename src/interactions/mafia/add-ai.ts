import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ActionRowBuilder, StringSelectMenuBuilder, type AutocompleteInteraction } from 'discord.js';
import { personaName } from '../../persona/persona.ts';
import { nameKey } from '../../persona/text.ts';
import * as engine from '../../game/index.ts';
import type { Change, GameState } from '../../game/index.ts';
import { NO_MENTIONS, plainName } from '../../discord/presenters/format.ts';
import { err, ok, type Result } from '../../result.ts';
import { searchPersonas } from '../persona/choices.ts';
import type { GameCommand } from '../../session/game-session.ts';
import { actorOf, mafiaCommand, type MafiaDeps, type MafiaInteraction } from './context.ts';
import { changeGame, changeGameAnsweringOnceStored } from './game-change.ts';
import { gameHere, hostOnly, lobbyButtonGame, lobbyMenuGame, lobbyOpen } from './preconditions.ts';

const ADD_AI_SELECT = 'lobby-ai';
const LOBBY_ONLY = lobbyOpen('This game has already started; AI players join in the lobby only.');

interface Choice {
  readonly name: string;
  /** A persona id. */
  readonly value: string;
}

/** Personas the person may seat (the store applies their permissions), less those already seated (a person's namesake is still offered). */
async function choices(
  i: MafiaInteraction | AutocompleteInteraction,
  deps: MafiaDeps,
  query: string,
  seated: GameState,
): Promise<Choice[]> {
  const taken = new Set(seated.players.flatMap((p) => (p.personaId ? [p.personaId] : [])));
  const actor = { userId: i.user.id, guildId: i.guildId, canManageServer: i.memberPermissions?.has('ManageGuild') ?? false };
  const found = await searchPersonas(deps.personas, actor, query, { exclude: (p) => taken.has(p.id) });
  return found.map((p) => ({ name: p.name.slice(0, 100), value: p.id }));
}

/** What was picked (a persona id) or typed (a name), as a seat: a persona the person may use. */
async function resolve(i: MafiaInteraction, deps: MafiaDeps, value: string): Promise<Result<{ name: string; personaId: string }, string>> {
  const actor = actorOf(i);
  // The personas in memory answer at once (the seat needs only the id and the name); the database
  // only for one made a moment ago in another process.
  const key = nameKey(value);
  const listed = (await deps.personas.list(actor)).filter((p) => p.id === value || nameKey(p.name) === key);
  // One name in several scopes (yours, the server's, built in): the database knows which comes first.
  const [only] = listed;
  if (only && listed.length === 1) return ok({ name: only.name, personaId: only.id });
  // Persona ids are UUIDs: a typed name is looked up by name alone (one query, not two).
  const byId = z.uuid().safeParse(value).success ? await deps.personas.get(actor, value) : null;
  const persona = byId?.ok ? byId : await deps.personas.getByName(actor, value);
  if (persona.ok) return ok({ name: personaName(persona.value), personaId: persona.value.id });
  return err(`There is no persona "${value}" that you may use here. Pick one from the list as you type.`);
}

/** The seat of a persona looked up by id or name, or why not. */
async function seatOf(i: MafiaInteraction, deps: MafiaDeps, value: string): Promise<Result<GameCommand, string>> {
  const who = await resolve(i, deps, value);
  if (!who.ok) return who;
  const id = `ai-${randomUUID().slice(0, 8)}`;
  const { name, personaId } = who.value;
  return ok((s, at) => engine.join(s, { player: { id, name, kind: 'ai', personaId }, at }));
}

/** Who took the seat, by the seat's change. */
function seatedLine(change: Change): string {
  const joined = change.events.find((e) => e.type === 'player_joined');
  return `${joined?.type === 'player_joined' ? plainName(joined.payload.player.name) : 'The persona'} takes a seat.`;
}

/** /mafia add-ai persona: the host seats an AI persona in the lobby. */
export const addAi = mafiaCommand.subcommand({
  name: 'add-ai',
  definition: (s) =>
    s
      .setDescription('Seat an AI persona in the lobby (host)')
      .addStringOption((o) => o.setName('persona').setDescription('Who plays').setRequired(true).setAutocomplete(true).setMaxLength(100)),
  // Reads the persona store, which may wait behind every game's writes: acknowledged if that takes long (Discord's 3 s).
  ackFirst: 'if-slow',
  preconditions: [gameHere, hostOnly, LOBBY_ONLY],
  run: async (i, found) => {
    const seat = await seatOf(i, found.deps, i.options.getString('persona', true));
    if (!seat.ok) return found.reply.privately(seat.error);
    await changeGameAnsweringOnceStored(found, seat.value, seatedLine);
  },
  autocomplete: async (i, deps) => {
    const game = i.inGuild() ? await deps.liveGames.inChannel(i.channelId) : null;
    if (!game) return i.respond([]);
    await i.respond(await choices(i, deps, i.options.getFocused(), game.state));
  },
});

/** The lobby's Add AI button: the host gets a menu of the personas they may seat. */
export const addAiButton = mafiaCommand.button({
  id: 'ai',
  preconditions: [lobbyButtonGame, hostOnly],
  run: async (i, { deps, game, ack, reply }) => {
    // The persona search reads the database: acknowledge first.
    await ack();
    const options = await choices(i, deps, '', game.state);
    if (options.length === 0) return reply.privately('There are no personas left that you may seat. Create one with `/persona create`.');
    const menu = new StringSelectMenuBuilder()
      .setCustomId(`${ADD_AI_SELECT}:${game.state.id}`)
      .setPlaceholder('Choose who plays')
      .addOptions(options.map((o) => ({ label: o.name, value: o.value })));
    await reply.answer({
      content: 'Who takes a seat? (More with `/mafia add-ai persona:`.)',
      components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
    });
  },
});

/** The menu the Add AI button opened: the pick takes a seat. */
export const addAiSelect = mafiaCommand.select({
  id: ADD_AI_SELECT,
  // The menu message becomes the answer.
  ack: 'update',
  preconditions: [lobbyMenuGame, hostOnly, LOBBY_ONLY],
  run: async (i, found) => {
    await found.ack();
    const seat = await seatOf(i, found.deps, i.values[0] ?? '');
    if (!seat.ok) return found.reply.privately(seat.error);
    await changeGame(found, seat.value, (change) =>
      found.reply.answer({ content: seatedLine(change), components: [], allowedMentions: NO_MENTIONS }),
    );
  },
});
