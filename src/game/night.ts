import { must } from '../result.ts';
import { MAFIA_TEAM, onlyPlayer } from './events.ts';
import type { GameError } from './errors.ts';
import { endGame, endIfWon, enterPhase } from './phases.ts';
import { getRole, isMafia } from './roles/registry.ts';
import { findPlayer, type GameState, type PlayerId, type PlayerState } from './state.ts';
import type { Transition } from './transition.ts';

function killsAllowedTonight(state: GameState): boolean {
  return state.day > 1 || state.settings.rules.nightOneKill;
}

function livingMafia(state: GameState): PlayerState[] {
  return state.players.filter((p) => p.alive && isMafia(p.role));
}

/** Whether this player has a night action to take right now. */
export function hasNightAction(state: GameState, player: PlayerState): boolean {
  if (state.phase !== 'night' || !player.alive || !player.role) return false;
  const role = getRole(player.role);
  if (!role.nightAction) return false;
  if ((role.nightAction === 'kill' || role.nightAction === 'shoot') && !killsAllowedTonight(state)) return false;
  if (role.nightAction === 'kill' && state.night.mafiaDecision) return false;
  return role.canActTonight?.(state, player) ?? true;
}

/** Why `actor` may not target `targetId` tonight, or null when the action is legal. null target = skip. */
export function nightTargetError(state: GameState, actorId: PlayerId, targetId: PlayerId | null): GameError | null {
  if (state.phase !== 'night') return { code: 'wrong_phase', message: 'Night actions can only be taken at night.' };
  const actor = findPlayer(state, actorId);
  if (!actor) return { code: 'not_in_game', message: 'You are not playing in this game.' };
  if (!actor.alive) return { code: 'dead', message: 'You are dead; the dead take no actions.' };
  const role = actor.role ? getRole(actor.role) : null;
  if (!role?.nightAction) return { code: 'no_action', message: 'Your role has no night action.' };
  if ((role.nightAction === 'kill' || role.nightAction === 'shoot') && !killsAllowedTonight(state)) {
    return { code: 'rule_disabled', message: 'In this game nobody may kill on the first night.' };
  }
  if (role.nightAction === 'kill' && state.night.mafiaDecision) {
    return { code: 'wrong_phase', message: 'The Mafia have already settled on tonight’s kill.' };
  }
  if (targetId === null) return null;
  const target = findPlayer(state, targetId);
  if (!target) return { code: 'unknown_target', message: 'That player is not in this game.' };
  if (!target.alive) return { code: 'dead_target', message: `${target.name} is already dead.` };
  if (target.id === actor.id && !role.selfTarget) {
    return { code: 'self_target', message: `As ${role.name} you cannot target yourself.` };
  }
  if (role.nightAction === 'kill' && isMafia(target.role)) {
    return { code: 'invalid_target', message: `${target.name} is on your team; the Mafia cannot kill its own.` };
  }
  const reason = role.checkTarget?.({ state, actor, target });
  return reason ? { code: 'invalid_target', message: reason } : null;
}

/** Exactly the players `actorId` may target tonight (skipping is always allowed besides). */
export function legalNightTargets(state: GameState, actorId: PlayerId): PlayerState[] {
  if (nightTargetError(state, actorId, null)) return [];
  return state.players.filter((p) => p.alive && nightTargetError(state, actorId, p.id) === null);
}

function allActionsIn(state: GameState): boolean {
  for (const p of state.players) {
    if (!hasNightAction(state, p)) continue;
    if (isMafia(p.role)) return false; // a living Mafia member can still act: no decision yet
    if (!(p.id in state.night.actions)) return false;
  }
  return true;
}

function agreedTarget(state: GameState): { reached: boolean; targetId: PlayerId | null } {
  const team = livingMafia(state);
  const needed = Math.ceil((team.length * 2) / 3);
  const counts = new Map<PlayerId | null, number>();
  for (const m of team) {
    if (!(m.id in state.night.proposals)) continue;
    const target = state.night.proposals[m.id] ?? null;
    counts.set(target, (counts.get(target) ?? 0) + 1);
  }
  for (const [targetId, count] of counts) if (count >= needed) return { reached: true, targetId };
  return { reached: false, targetId: null };
}

/** The lowest-seat living Mafia member who proposed decides a split. */
function lowestSeatChoice(state: GameState): { found: boolean; targetId: PlayerId | null } {
  for (const m of livingMafia(state)) {
    if (m.id in state.night.proposals) return { found: true, targetId: state.night.proposals[m.id] ?? null };
  }
  return { found: false, targetId: null };
}

/** Seed 001's coordination: two thirds agree → done; else a second round; still split → lowest seat. */
function proposeKill(t: Transition, actorId: PlayerId, targetId: PlayerId | null): void {
  const round = t.state.night.mafiaRound;
  t.emit({ type: 'mafia_proposal', payload: { actorId, round, targetId } }, MAFIA_TEAM);
  const team = livingMafia(t.state);
  if (!team.every((m) => m.id in t.state.night.proposals)) return;
  const agreement = agreedTarget(t.state);
  if (agreement.reached) {
    t.emit({ type: 'mafia_decision', payload: { targetId: agreement.targetId, how: 'agreement' } }, MAFIA_TEAM);
  } else if (round === 1) {
    t.emit({ type: 'mafia_second_round', payload: { firstRound: { ...t.state.night.proposals } } }, MAFIA_TEAM);
  } else {
    const choice = lowestSeatChoice(t.state);
    t.emit({ type: 'mafia_decision', payload: { targetId: choice.targetId, how: 'lowest_seat' } }, MAFIA_TEAM);
  }
}

export function recordAction(t: Transition, actor: PlayerState, targetId: PlayerId | null): void {
  const kind = actor.role ? getRole(actor.role).nightAction : null;
  if (kind === 'kill') {
    proposeKill(t, actor.id, targetId);
  } else if (kind) {
    t.emit({ type: 'night_action', payload: { actorId: actor.id, action: kind, targetId } }, onlyPlayer(actor.id));
  }
  if (allActionsIn(t.state)) resolveNight(t);
}

/** At the deadline whatever the Mafia proposed stands: agreement, else the lowest seat, else no kill. */
function settleMafiaAtDeadline(t: Transition): void {
  if (t.state.night.mafiaDecision || livingMafia(t.state).length === 0 || !killsAllowedTonight(t.state)) return;
  const agreement = agreedTarget(t.state);
  if (agreement.reached) {
    t.emit({ type: 'mafia_decision', payload: { targetId: agreement.targetId, how: 'agreement' } }, MAFIA_TEAM);
    return;
  }
  const choice = lowestSeatChoice(t.state);
  const how = choice.found ? 'deadline' : 'none';
  t.emit({ type: 'mafia_decision', payload: { targetId: choice.targetId, how } }, MAFIA_TEAM);
}

function targetOf(state: GameState, player: PlayerState): PlayerId | null {
  return state.night.actions[player.id]?.targetId ?? null;
}

function byKind(living: readonly PlayerState[], kind: string): PlayerState[] {
  return living.filter((p) => p.role !== null && getRole(p.role).nightAction === kind);
}

/**
 * Resolves the night in a fixed order: protect, kill, shoot, investigate.
 * A player killed at an earlier step loses an action that comes later.
 */
export function resolveNight(t: Transition): void {
  settleMafiaAtDeadline(t);
  const state = t.state;
  const living = state.players.filter((p) => p.alive);

  const protectedIds = new Set(
    byKind(living, 'protect')
      .map((p) => targetOf(state, p))
      .filter((id) => id !== null),
  );
  const dead = new Map<PlayerId, 'mafia' | 'vigilante'>();

  const mafiaTarget = state.night.mafiaDecision?.targetId ?? null;
  if (mafiaTarget && !protectedIds.has(mafiaTarget)) dead.set(mafiaTarget, 'mafia');

  for (const vigilante of byKind(living, 'shoot')) {
    const target = targetOf(state, vigilante);
    if (dead.has(vigilante.id) || !target || protectedIds.has(target) || dead.has(target)) continue;
    dead.set(target, 'vigilante');
  }

  const night = state.day;
  // Results are announced at dawn, so the dawn begins before the deaths are told.
  enterPhase(t, 'dawn', night);
  for (const [playerId, cause] of dead) {
    const p = must(findPlayer(state, playerId), `dead player ${playerId}`);
    emitDeath(t, p, cause);
  }
  for (const detective of byKind(living, 'investigate')) {
    const targetId = targetOf(state, detective);
    if (dead.has(detective.id) || !targetId) continue;
    const target = must(findPlayer(state, targetId), `investigated player ${targetId}`);
    const result = target.role ? getRole(target.role).investigatedAs : 'innocent';
    t.emit({ type: 'investigation_result', payload: { detectiveId: detective.id, targetId, night, result } }, onlyPlayer(detective.id));
  }
  t.emit({ type: 'night_resolved', payload: { night, deaths: [...dead.keys()] } });
  endIfWon(t);
}

export function emitDeath(t: Transition, player: PlayerState, cause: 'mafia' | 'vigilante' | 'lynch'): void {
  const rules = t.state.settings.rules;
  t.emit({
    type: 'player_died',
    payload: {
      playerId: player.id,
      cause,
      day: t.state.day,
      role: rules.revealRoleOnDeath ? player.role : null,
      will: rules.lastWills ? player.will : null,
    },
  });
}

/** Starts the next night, unless too many cycles passed without a death. */
export function beginNight(t: Transition): void {
  let lastDeath = 0;
  for (const p of t.state.players) lastDeath = Math.max(lastDeath, p.death?.day ?? 0);
  const quiet = t.state.day - lastDeath;
  if (t.state.day > 0 && quiet >= t.state.settings.rules.maxQuietCycles) {
    endGame(t, { kind: 'draw', reason: `${quiet} days and nights passed without a death.` });
    return;
  }
  enterPhase(t, 'night', t.state.day + 1);
  if (allActionsIn(t.state)) resolveNight(t);
}
