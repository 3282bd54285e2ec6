import { z } from 'zod';
import { must, type Result } from '../../result.ts';
import { fail, type Change, type GameError } from '../errors.ts';
import { MAFIA_TEAM, onlyPlayer, type PlayerKind } from '../events.ts';
import { fold } from '../fold.ts';
import { endGame } from '../phases.ts';
import { beginNight } from '../night.ts';
import { createRng } from '../rng.ts';
import { getRole, type RoleId } from '../roles/registry.ts';
import { SettingsSchema, TRIAL_DAY_PLAYERS, type SettingsInput } from '../settings.ts';
import { checkRoleList, MAX_PLAYERS, rolesFor } from '../setups.ts';
import { findPlayer, type GameState } from '../state.ts';
import { Transition } from '../transition.ts';

const MAX_NAME_LENGTH = 80;

function readableZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ');
}

// Games made without settings share the defaults, parsed once: a parse was a third of an all-AI game's setup.
const DEFAULTS = SettingsSchema.safeParse({});

export function createGame(input: { gameId: string; seed: number; settings?: SettingsInput; at: number }): Result<Change, GameError> {
  const parsed = input.settings === undefined ? DEFAULTS : SettingsSchema.safeParse(input.settings);
  if (!parsed.success) return fail('bad_settings', `Invalid game settings: ${readableZodError(parsed.error)}`);
  const settings = parsed.data;
  if (settings.setup.kind === 'custom') {
    const check = checkRoleList(settings.setup.roles);
    if (!check.ok) return fail('bad_setup', check.error);
  }
  const t = new Transition(fold([]), input.at);
  t.emit({ type: 'game_created', payload: { gameId: input.gameId, seed: input.seed, settings } });
  return t.done();
}

export interface JoiningPlayer {
  id: string;
  name: string;
  kind: PlayerKind;
  userId?: string | null;
  personaId?: string | null;
}

/** One line of plain text: control characters and line breaks become spaces, runs of spaces one. */
function seatName(raw: string): string {
  return raw
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A name nobody else at the table has. A persona that shares a seated name is shown as
 * "Gina (AI)", a person who shares a person's name as "Gina (2)", so messages, menus and prompts
 * never mix two seats up.
 */
function distinctName(state: GameState, name: string, kind: PlayerKind): string {
  const taken = new Set(state.players.map((p) => p.name.toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let n = 1; ; n++) {
    const candidate = kind === 'ai' ? (n === 1 ? `${name} (AI)` : `${name} (AI ${n})`) : `${name} (${n + 1})`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Seats a player under a name nobody else has. A person never gets a mark because of an AI: an AI
 * seat holding their name takes the mark instead, whichever joined first.
 */
export function join(state: GameState, input: { player: JoiningPlayer; at: number }): Result<Change, GameError> {
  if (state.phase !== 'lobby') return fail('game_started', 'This game has already started; wait for the next one.');
  const { player } = input;
  const given = seatName(player.name);
  if (!given || given.length > MAX_NAME_LENGTH) {
    return fail('bad_text', `A player name needs 1–${MAX_NAME_LENGTH} characters.`);
  }
  if (findPlayer(state, player.id)) return fail('already_joined', 'You are already in this game.');
  if (state.players.length >= MAX_PLAYERS) return fail('game_full', `This game is full (${MAX_PLAYERS} players).`);
  const t = new Transition(state, input.at);
  const namesake =
    player.kind === 'human' ? state.players.find((p) => p.kind === 'ai' && p.name.toLowerCase() === given.toLowerCase()) : undefined;
  if (namesake) t.emit({ type: 'player_renamed', payload: { playerId: namesake.id, name: distinctName(state, namesake.name, 'ai') } });
  const name = distinctName(t.state, given, player.kind);
  t.emit({
    type: 'player_joined',
    payload: {
      player: { id: player.id, name, kind: player.kind, userId: player.userId ?? null, personaId: player.personaId ?? null },
    },
  });
  return t.done();
}

export function leave(state: GameState, input: { playerId: string; at: number }): Result<Change, GameError> {
  if (state.phase !== 'lobby') return fail('game_started', 'The game has started; you can no longer leave it.');
  if (!findPlayer(state, input.playerId)) return fail('not_in_game', 'You are not in this game.');
  const t = new Transition(state, input.at);
  t.emit({ type: 'player_left', payload: { playerId: input.playerId } });
  return t.done();
}

/** The day style the game plays (or, in the lobby, would play as seated now): `auto` becomes trial for big preset tables. */
export function dayStyleFor(state: Pick<GameState, 'settings' | 'players'>): 'open' | 'trial' {
  const { dayStyle } = state.settings.rules;
  if (dayStyle !== 'auto') return dayStyle;
  return state.settings.setup.kind === 'preset' && state.players.length >= TRIAL_DAY_PLAYERS ? 'trial' : 'open';
}

/** Deals the roles with the game's seed and starts night one. */
export function start(state: GameState, input: { at: number }): Result<Change, GameError> {
  if (state.phase !== 'lobby') return fail('game_started', 'This game has already started.');
  const setup = rolesFor(state.settings.setup, state.players.length);
  if (!setup.ok) return fail('bad_setup', setup.error);
  const dealt = createRng(state.seed, 'deal').shuffle(setup.value);
  const t = new Transition(state, input.at);
  t.emit({ type: 'game_started', payload: { roles: [...setup.value].sort(), dayStyle: dayStyleFor(state) } });
  state.players.forEach((p, i) => {
    t.emit(
      { type: 'role_assigned', payload: { playerId: p.id, role: must(dealt[i], `a dealt role for seat ${p.seat}`) } },
      onlyPlayer(p.id),
    );
  });
  // A loop, not flatMap: V8's flatMap costs more than the rest of this command (every game starts here).
  const members: { playerId: string; role: RoleId }[] = [];
  for (const p of t.state.players) if (p.role && getRole(p.role).faction === 'mafia') members.push({ playerId: p.id, role: p.role });
  t.emit({ type: 'mafia_team', payload: { members } }, MAFIA_TEAM);
  beginNight(t);
  return t.done();
}

/** Stops a game for good (the host ended it); roles are revealed, nobody wins. */
export function cancel(state: GameState, input: { by: string | null; reason: string; at: number }): Result<Change, GameError> {
  if (state.phase === 'ended') return fail('game_over', 'This game is already over.');
  const t = new Transition(state, input.at);
  endGame(t, { kind: 'cancelled', by: input.by, reason: input.reason });
  return t.done();
}
