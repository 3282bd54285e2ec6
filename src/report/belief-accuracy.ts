import { isMafia, type GameEventOf, type GameState, type PlayerId, type RoleId } from '../game/index.ts';

/** How well one AI seat read the table at the end of one day. */
export interface DayRead {
  readonly day: number;
  /** Mean squared error of the seat's suspicions against the truth (1 Mafia-aligned, else 0): 0 is perfect, 0.25 a coin flip. */
  readonly brier: number;
  /**
   * The same players scored with the seat's prior, what it knew before any read of its own: for a seat
   * outside the Mafia the uniform prior (the Mafia share among the others whose role is secret, as the
   * role list tells anyone); for a Mafia seat its true prior (its team Mafia, everyone else town), so 0.
   */
  readonly priorBrier: number;
  /** How many players were scored. */
  readonly scored: number;
  /** The one player the seat suspected most; null when several share the highest suspicion. */
  readonly topSuspectId: PlayerId | null;
  /** Whether that player was Mafia; null for a Mafia seat (no Mafia left among whom it scores) or without a single top suspect. */
  readonly topSuspectMafia: boolean | null;
}

export interface SeatRead {
  readonly playerId: PlayerId;
  readonly name: string;
  readonly role: RoleId;
  readonly days: readonly DayRead[];
}

type Reasoning = GameEventOf<'reasoning'>;

/**
 * Each AI seat's belief accuracy per day of a finished game, against the roles `game_ended` reveals;
 * null until the game has ended. Seats without recorded suspicions (people; logs from before they
 * were recorded) are left out.
 *
 * - **End of day d** is the seat's last decision for one of day d's phases: the engine runs night d,
 *   dawn d, day d, vote d, last words d, then night d + 1, and each reasoning event names the phase
 *   and day its decision was for; the last such event of day d in the log carries the seat's
 *   suspicions when the day was over for it.
 * - **Scored players:** everyone but the seat whose role was not yet public when the seat decided
 *   (a death that revealed a role settles that player for everyone); a Mafia seat's own team is left
 *   out too (it knows them). A scored player the seat gave no suspicion counts at the seat's prior.
 */
export function beliefAccuracy(state: GameState): SeatRead[] | null {
  const ended = state.log.find((e): e is GameEventOf<'game_ended'> => e.type === 'game_ended');
  if (!ended) return null;
  const roles = ended.payload.roles;
  const revealedAt = new Map<PlayerId, number>();
  for (const e of state.log)
    if (e.type === 'player_died' && e.payload.role && !revealedAt.has(e.payload.playerId)) revealedAt.set(e.payload.playerId, e.seq);

  const lastOfDay = new Map<PlayerId, Map<number, Reasoning>>();
  for (const e of state.log) {
    if (e.type !== 'reasoning' || !e.payload.suspicion) continue;
    const byDay = lastOfDay.get(e.payload.playerId) ?? new Map<number, Reasoning>();
    byDay.set(e.payload.day, e);
    lastOfDay.set(e.payload.playerId, byDay);
  }

  const reads: SeatRead[] = [];
  for (const seat of state.players) {
    const byDay = lastOfDay.get(seat.id);
    const role = roles[seat.id];
    if (!byDay || !role) continue;
    const days: DayRead[] = [];
    for (const [day, event] of [...byDay].sort(([a], [b]) => a - b)) {
      const read = dayRead(state, roles, revealedAt, seat.id, event);
      if (read) days.push({ day, ...read });
    }
    reads.push({ playerId: seat.id, name: seat.name, role, days });
  }
  return reads;
}

function dayRead(
  state: GameState,
  roles: Readonly<Record<PlayerId, RoleId>>,
  revealedAt: ReadonlyMap<PlayerId, number>,
  seatId: PlayerId,
  event: Reasoning,
): Omit<DayRead, 'day'> | null {
  const seatIsMafia = isMafia(roles[seatId] ?? null);
  const secret = (id: PlayerId) => (revealedAt.get(id) ?? Infinity) > event.seq;
  // The public prior counts every other player whose role is still secret, the seat's teammates included.
  const others = state.players.filter((p) => p.id !== seatId && secret(p.id));
  const truth = (id: PlayerId) => (isMafia(roles[id] ?? null) ? 1 : 0);
  if (others.length === 0) return null;
  const uniform = others.reduce((n, p) => n + truth(p.id), 0) / others.length;
  // A Mafia seat knows its team, so the players scored (everyone else) are town to it.
  const scored = seatIsMafia ? others.filter((p) => truth(p.id) === 0) : others;
  const prior = seatIsMafia ? 0 : uniform;
  if (scored.length === 0) return null;
  const suspicion = event.payload.suspicion ?? {};
  const said = (id: PlayerId) => suspicion[id] ?? prior;
  let brier = 0;
  let priorBrier = 0;
  for (const p of scored) {
    brier += (said(p.id) - truth(p.id)) ** 2;
    priorBrier += (prior - truth(p.id)) ** 2;
  }
  const top = topOf(scored.map((p) => ({ id: p.id, suspicion: said(p.id) })));
  return {
    brier: brier / scored.length,
    priorBrier: priorBrier / scored.length,
    scored: scored.length,
    topSuspectId: top,
    topSuspectMafia: top === null || seatIsMafia ? null : truth(top) === 1,
  };
}

function topOf(reads: readonly { id: PlayerId; suspicion: number }[]): PlayerId | null {
  let best: { id: PlayerId; suspicion: number } | null = null;
  let shared = false;
  for (const r of reads) {
    if (!best || r.suspicion > best.suspicion) {
      best = r;
      shared = false;
    } else if (r.suspicion === best.suspicion) shared = true;
  }
  return best && !shared ? best.id : null;
}

/** The mean of a figure over every seat-day of some games' reads; null without any. */
export function meanOverDays(reads: readonly SeatRead[], figure: (day: DayRead) => number): number | null {
  let sum = 0;
  let n = 0;
  for (const seat of reads)
    for (const day of seat.days) {
      sum += figure(day);
      n++;
    }
  return n === 0 ? null : sum / n;
}

/**
 * Reads split by side. Seats outside the Mafia guess who is Mafia, so their suspicions are
 * probabilities; a Mafia seat knows, and its suspicions are the town's eye it plays to choose whom to
 * push, so no mean of the two says anything.
 */
export function bySide(reads: readonly SeatRead[]): { readonly town: SeatRead[]; readonly mafia: SeatRead[] } {
  return { town: reads.filter((r) => !isMafia(r.role)), mafia: reads.filter((r) => isMafia(r.role)) };
}
