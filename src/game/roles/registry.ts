import { z } from 'zod';
import type { RoleDefinition } from './role.ts';
import { mafia } from './mafia.ts';
import { godfather } from './godfather.ts';
import { detective } from './detective.ts';
import { doctor } from './doctor.ts';
import { vigilante } from './vigilante.ts';
import { jester } from './jester.ts';
import { townsperson } from './townsperson.ts';

/** Adding a role: write its file, then list it here. */
const ROLES = [mafia, godfather, detective, doctor, vigilante, jester, townsperson] as const;

export type RoleId = (typeof ROLES)[number]['id'];
export const ROLE_IDS = ROLES.map((r) => r.id) as [RoleId, ...RoleId[]];
export const RoleIdSchema = z.enum(ROLE_IDS);

const byId = new Map<string, RoleDefinition<RoleId>>(ROLES.map((r) => [r.id, r]));

export function getRole(id: RoleId): RoleDefinition<RoleId> {
  const role = byId.get(id);
  if (!role) throw new Error(`unregistered role ${id}`);
  return role;
}

export function isMafia(role: RoleId | null): boolean {
  return role !== null && getRole(role).faction === 'mafia';
}

export function allRoles(): readonly RoleDefinition<RoleId>[] {
  return ROLES;
}
