/** The Mafia rules engine: pure functions over an event log, no I/O. */
export * from './commands/lobby.ts';
export * from './commands/play.ts';
export * from './commands/advance.ts';
export * from './errors.ts';
export * from './events.ts';
export { fold, applyEvent } from './fold.ts';
export { legalNightTargets, hasNightAction, nightTargetError } from './night.ts';
export { legalVoteTargets, countVotes, voteError } from './vote.ts';
export * from './roles/registry.ts';
export type { Faction } from './roles/role.ts';
export * from './settings.ts';
export * from './setups.ts';
export * from './state.ts';
export * from './view.ts';
export { perGame } from './per-game.ts';
export { chained } from './transition.ts';
export { createRng, Rng } from './rng.ts';
export { narrate, PHASE_TITLE } from './narrate.ts';
