import { err, ok, type Result } from '../result.ts';
import { getRole, type RoleId } from './roles/registry.ts';
import type { Setup } from './settings.ts';

export const MIN_PRESET_PLAYERS = 5;
export const MAX_PRESET_PLAYERS = 16;
/** Discord select menus hold 25 options: every living player plus "skip" must fit. */
export const MAX_PLAYERS = 24;

/**
 * About one Mafia per 3–4 players; the Godfather, Jester and Vigilante join as
 * the table grows so bigger games get more to reason about.
 */
export function presetRoles(players: number): RoleId[] {
  const mafiaCount = Math.round(players / 3.5);
  const roles: RoleId[] = [];
  if (players >= 9) roles.push('godfather');
  while (roles.length < mafiaCount) roles.push('mafia');
  roles.push('detective', 'doctor');
  if (players >= 8) roles.push('jester');
  if (players >= 10) roles.push('vigilante');
  while (roles.length < players) roles.push('townsperson');
  return roles;
}

/** Checks a role list's shape regardless of player count. */
export function checkRoleList(roles: readonly RoleId[]): Result<RoleId[], string> {
  const mafia = roles.filter((r) => getRole(r).faction === 'mafia').length;
  const others = roles.length - mafia;
  if (mafia === 0) return err('The role list needs at least one Mafia member (mafia or godfather).');
  if (mafia >= others) {
    return err(`The Mafia (${mafia}) must be fewer than everyone else (${others}), or they win before the game starts.`);
  }
  if (roles.length > MAX_PLAYERS) return err(`A game holds at most ${MAX_PLAYERS} players.`);
  return ok([...roles]);
}

/** The role list for this many players, or why the setup cannot seat them. */
export function rolesFor(setup: Setup, players: number): Result<RoleId[], string> {
  if (setup.kind === 'preset') {
    if (players < MIN_PRESET_PLAYERS || players > MAX_PRESET_PLAYERS) {
      return err(`The preset setups are for ${MIN_PRESET_PLAYERS}–${MAX_PRESET_PLAYERS} players; this game has ${players}.`);
    }
    return checkRoleList(presetRoles(players));
  }
  if (setup.roles.length !== players) {
    return err(`The custom role list has ${setup.roles.length} roles but the game has ${players} players.`);
  }
  return checkRoleList(setup.roles);
}
