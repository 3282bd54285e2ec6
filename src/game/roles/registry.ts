import { ROLE_IDS, type RoleId } from './ids.ts';
import type { RoleDefinition } from './role.ts';
import { mafia } from './mafia.ts';
import { godfather } from './godfather.ts';
import { detective } from './detective.ts';
import { doctor } from './doctor.ts';
import { vigilante } from './vigilante.ts';
import { jester } from './jester.ts';
import { townsperson } from './townsperson.ts';

export { ROLE_IDS, RoleIdSchema, type RoleId } from './ids.ts';

/** Every role id has its definition: a role listed in ids.ts without one does not compile. */
const ROLES = { mafia, godfather, detective, doctor, vigilante, jester, townsperson } satisfies { [Id in RoleId]: RoleDefinition<Id> };

export function getRole(id: RoleId): RoleDefinition<RoleId> {
  // A switch over the ids rather than ROLES[id]: the rules and the brain ask this thousands of times a game.
  switch (id) {
    case 'mafia':
      return ROLES.mafia;
    case 'godfather':
      return ROLES.godfather;
    case 'detective':
      return ROLES.detective;
    case 'doctor':
      return ROLES.doctor;
    case 'vigilante':
      return ROLES.vigilante;
    case 'jester':
      return ROLES.jester;
    case 'townsperson':
      return ROLES.townsperson;
  }
}

export function isMafia(role: RoleId | null): boolean {
  return role !== null && getRole(role).faction === 'mafia';
}

export function allRoles(): readonly RoleDefinition<RoleId>[] {
  return ROLE_IDS.map((id) => ROLES[id]);
}
