import { z } from 'zod';

/** Every role of the game. Adding a role: list its id here, write its file, then register it. */
export const ROLE_IDS = ['mafia', 'godfather', 'detective', 'doctor', 'vigilante', 'jester', 'townsperson'] as const;

export type RoleId = (typeof ROLE_IDS)[number];
export const RoleIdSchema = z.enum(ROLE_IDS);
