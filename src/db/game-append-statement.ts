import { randomUUID } from 'node:crypto';
import type { GameProjection, PlayerProjection, StoredEvent, StoredRewrite } from './game-records.ts';
import { Prisma } from './generated/client.ts';

/** One game's append, as `GameEventLog.append` takes it. */
export interface AppendRequest {
  readonly gameId: string;
  readonly expectedLastSeq: number;
  readonly events: readonly StoredEvent[];
  readonly projection: GameProjection;
  /** The projection stored with `expectedLastSeq`: only the players that changed since are written. */
  readonly previous?: GameProjection | undefined;
  /** Earlier events these ones rewrite (an edited or deleted speech): their stored payloads are written over. */
  readonly rewrites?: readonly StoredRewrite[] | undefined;
}

/** How one game's append went: whether its row was claimed, and whether the game exists at all (a conflict or a missing game). */
export interface AppendOutcome {
  readonly gameId: string;
  readonly claimed: boolean;
  readonly exists: boolean;
}

function samePlayer(a: PlayerProjection, b: PlayerProjection | undefined): boolean {
  return b !== undefined && (Object.keys(a) as (keyof PlayerProjection)[]).every((key) => a[key] === b[key]);
}

/** One game's row of the statement's input. */
function inputRow(request: AppendRequest) {
  const { projection, previous } = request;
  const before = new Map((previous?.players ?? []).map((player) => [player.playerId, player]));
  const keep = projection.players.map((player) => player.playerId);
  return {
    gameId: request.gameId,
    expected: request.expectedLastSeq,
    lastSeq: request.expectedLastSeq + request.events.length,
    phase: projection.phase,
    status: projection.status,
    day: projection.day,
    deadline: projection.deadline === null ? null : new Date(projection.deadline).toISOString(),
    events: request.events.map((event) => ({
      id: randomUUID(),
      seq: event.seq,
      type: event.type,
      at: new Date(event.at).toISOString(),
      visibility: event.visibility,
      payload: event.payload,
    })),
    players: projection.players
      .filter((player) => previous === undefined || !samePlayer(player, before.get(player.playerId)))
      .map((player) => ({ id: randomUUID(), ...player })),
    keep,
    // Rows are deleted only when a player left (or the previous rows are not known).
    prune: previous === undefined || previous.players.some((player) => !keep.includes(player.playerId)),
    rewrites: request.rewrites ?? [],
  };
}

/** Timestamps are stored as UTC wall time in `timestamp(3)` columns, as Prisma writes them. */
const UTC_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')::timestamp(3)`;

const UPSERT_PLAYERS = Prisma.sql`,
    upserted AS (
      INSERT INTO "GamePlayer" ("id", "gameId", "playerId", "seat", "displayName", "kind", "userId", "personaId", "role", "alive", "lastWill")
      SELECT p."id", i."gameId", p."playerId", p."seat", p."displayName", p."kind", p."userId", p."personaId", p."role", p."alive", p."lastWill"
      FROM input AS i JOIN claimed AS c ON c."id" = i."gameId",
        jsonb_to_recordset(i."players") AS p("id" text, "playerId" text, "seat" int, "displayName" text, "kind" text, "userId" text,
          "personaId" text, "role" text, "alive" boolean, "lastWill" text)
      ON CONFLICT ("gameId", "playerId") DO UPDATE SET
        "seat" = EXCLUDED."seat", "displayName" = EXCLUDED."displayName", "kind" = EXCLUDED."kind", "userId" = EXCLUDED."userId",
        "personaId" = EXCLUDED."personaId", "role" = EXCLUDED."role", "alive" = EXCLUDED."alive", "lastWill" = EXCLUDED."lastWill"
    )`;

const PRUNE_PLAYERS = Prisma.sql`,
    removed AS (
      DELETE FROM "GamePlayer" AS gp USING input AS i JOIN claimed AS c ON c."id" = i."gameId"
      WHERE i."prune" AND gp."gameId" = i."gameId" AND gp."playerId" NOT IN (SELECT jsonb_array_elements_text(i."keep"))
    )`;

/** Old words leave the store with the append that withdrew them: the rows are written over, never kept beside. */
const REWRITE_EVENTS = Prisma.sql`,
    rewritten AS (
      UPDATE "GameEvent" AS ge SET "payload" = r."payload"
      FROM input AS i JOIN claimed AS c ON c."id" = i."gameId", jsonb_to_recordset(i."rewrites") AS r("seq" int, "payload" jsonb)
      WHERE ge."gameId" = i."gameId" AND ge."seq" = r."seq"
    )`;

/**
 * This statement's transaction returns before its commit record reaches the disk (`SET LOCAL
 * synchronous_commit = off`, in the statement itself: no extra round trip). A bot killed at any
 * moment loses nothing it confirmed: the server has the commit. Only a crash of the database server
 * itself (or its machine) can lose the last commits, those of the last few hundred milliseconds
 * (3 × `wal_writer_delay`), and never half of one: the log stays consistent. Unreferenced CTEs are
 * not run, hence the join on it.
 */
const ASYNCHRONOUS_COMMIT = Prisma.sql`,
    durability AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)`;

/**
 * Appends to several games as one SQL statement, each game on its own terms: the compare-and-set
 * on its `lastSeq` (which also row-locks it, so a concurrent writer waits and then finds `lastSeq`
 * moved), its events, and its player rows that changed, written only if its row was claimed.
 * Answers one row per game. Each game may appear once.
 *
 * One statement, not Prisma's interactive transaction per game (BEGIN, four or more queries,
 * COMMIT): every vote and night pick is stored before its confirmation is sent, and at nightfall
 * every game stores at once, so each round trip saved is waited for by every interaction behind
 * it (on embedded PGlite, run on the bot's own thread). A data-modifying WITH is atomic like a
 * transaction. Most appends change no player and rewrite nothing: then those parts are left out (less to plan).
 */
export function appendStatement(requests: readonly AppendRequest[], { waitForDisk = false } = {}): Prisma.Sql {
  const rows = requests.map(inputRow);
  const upsert = rows.some((row) => row.players.length > 0) ? UPSERT_PLAYERS : Prisma.empty;
  const prune = rows.some((row) => row.prune) ? PRUNE_PLAYERS : Prisma.empty;
  const rewrite = rows.some((row) => row.rewrites.length > 0) ? REWRITE_EVENTS : Prisma.empty;
  return Prisma.sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS i("gameId" text, "expected" int, "lastSeq" int, "phase" text,
        "status" text, "day" int, "deadline" timestamp(3), "events" jsonb, "players" jsonb, "keep" jsonb, "prune" boolean, "rewrites" jsonb)
    ),
    claimed AS (
      UPDATE "Game" AS g SET
        "lastSeq" = i."lastSeq", "phase" = i."phase", "status" = i."status", "day" = i."day", "deadline" = i."deadline",
        "endedAt" = CASE WHEN i."status" = 'ended' THEN COALESCE(g."endedAt", ${UTC_NOW}) ELSE g."endedAt" END,
        "updatedAt" = ${UTC_NOW}
      FROM input AS i
      WHERE g."id" = i."gameId" AND g."lastSeq" = i."expected"
      RETURNING g."id"
    ),
    appended AS (
      INSERT INTO "GameEvent" ("id", "gameId", "seq", "type", "at", "visibility", "payload")
      SELECT e."id", i."gameId", e."seq", e."type", e."at", COALESCE(e."visibility", 'null'::jsonb), COALESCE(e."payload", 'null'::jsonb)
      FROM input AS i JOIN claimed AS c ON c."id" = i."gameId",
        jsonb_to_recordset(i."events") AS e("id" text, "seq" int, "type" text, "at" timestamp(3), "visibility" jsonb, "payload" jsonb)
    )${upsert}${prune}${rewrite}${waitForDisk ? Prisma.empty : ASYNCHRONOUS_COMMIT}
    SELECT i."gameId", (c."id" IS NOT NULL) AS "claimed", EXISTS (SELECT 1 FROM "Game" AS g WHERE g."id" = i."gameId") AS "exists"
    FROM input AS i LEFT JOIN claimed AS c ON c."id" = i."gameId"${waitForDisk ? Prisma.empty : Prisma.sql` CROSS JOIN durability`}`;
}
