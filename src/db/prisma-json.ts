import { Prisma } from './generated/client.ts';
import type { Json } from './game-records.ts';

/** Prisma spells a top-level JSON null as Prisma.JsonNull (plain null means SQL NULL). */
export function toPrismaJson(value: Json): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null ? Prisma.JsonNull : value;
}

/** jsonb only ever holds what we wrote, and JSON has no `undefined`. */
export function fromPrismaJson(value: Prisma.JsonValue): Json {
  return value as Json;
}
