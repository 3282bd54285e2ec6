import { isMafia, type GameEvent, type GameState, type PlayerView } from '../../src/game/index.ts';

/** Each event as JSON, written once: a game's views hold the same event objects, view after view. */
const eventJson = new WeakMap<GameEvent, string>();
function asJson(e: GameEvent): string {
  let json = eventJson.get(e);
  if (json === undefined) {
    json = JSON.stringify(e);
    eventJson.set(e, json);
  }
  return json;
}

/**
 * Everything in `view` that its viewer should not know. Empty means no leak.
 * Checks structure, not wording: other seats' roles, private events, director notes.
 */
export function leaksIn(state: GameState, view: PlayerView): string[] {
  const problems: string[] = [];
  const viewer = state.players.find((p) => p.id === view.me.id)!;
  const viewerMafia = isMafia(viewer.role);
  const ended = state.phase === 'ended';
  const revealed = new Set<string>();
  for (const e of state.log) if (e.type === 'player_died' && e.payload.role) revealed.add(e.payload.playerId);

  for (const seat of view.seats) {
    if (seat.id === viewer.id || seat.knownRole === null) continue;
    const owner = state.players.find((p) => p.id === seat.id)!;
    const allowed = ended || revealed.has(seat.id) || (viewerMafia && isMafia(owner.role));
    if (!allowed) problems.push(`knows ${seat.name}'s role (${seat.knownRole})`);
  }
  for (const e of view.events) {
    const v = e.visibility;
    if (v.kind === 'director') problems.push(`sees director note #${e.seq}`);
    if (v.kind === 'team' && !viewerMafia) problems.push(`sees Mafia event #${e.seq} ${e.type}`);
    if (v.kind === 'player' && v.playerId !== viewer.id) problems.push(`sees ${v.playerId}'s private event #${e.seq} ${e.type}`);
  }
  if (!viewerMafia && view.teammates.length > 0) problems.push('has Mafia teammates listed');
  if (view.investigations.length > 0 && viewer.role !== 'detective') problems.push('has investigation results');
  // The view as JSON, its events (most of it) written once a game rather than once a view.
  const { events, ...rest } = view;
  const text = `${JSON.stringify(rest)}[${events.map(asJson).join(',')}]`;
  for (const e of state.log) {
    if (e.type === 'reasoning' && text.includes(e.payload.text)) problems.push(`contains reasoning of ${e.payload.playerId}`);
    if (e.type === 'will_written' && e.payload.playerId !== viewer.id && text.includes(e.payload.text)) {
      const dead = state.players.find((p) => p.id === e.payload.playerId && !p.alive);
      if (!dead && !ended) problems.push(`contains ${e.payload.playerId}'s unread will`);
    }
  }
  return problems;
}
