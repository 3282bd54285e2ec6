import { expect } from 'vitest';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import * as engine from '../../src/game/index.ts';
import type { GameState, PlayerKind, PlayerState } from '../../src/game/index.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import { TestGame } from '../support/test-game.ts';

/** What the scripted game's AI seats were last recorded thinking, by day then seat. */
type Recorded = Map<number, Map<string, Record<string, number>>>;

export interface ScriptedGame {
  readonly t: TestGame;
  readonly mafia: PlayerState;
  readonly detective: PlayerState;
  /** Killed on night 1. */
  readonly firstVictim: PlayerState;
  /** Lynched on day 1 (voted for by the Mafia and the Detective; voted "no lynch" himself). */
  readonly lynched: PlayerState;
  /** Did not vote on day 1; killed on night 2, which ends the game (the Mafia reach parity). */
  readonly abstainer: PlayerState;
  readonly recorded: Recorded;
}

/**
 * Five players, two people and three AI seats (in seat order), one Mafia: night 1 a kill; day 1
 * a lynch by 2 votes to 1 with one abstention; night 2 a kill and the Mafia win, so day 2 has no
 * vote. Every AI seat records suspicions at night, by day and (some) at the vote.
 */
export function scriptedGame(names: readonly string[] = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve']): ScriptedGame {
  const kinds: PlayerKind[] = ['human', 'human', 'ai', 'ai', 'ai'];
  const t = TestGame.seated(
    names.map((name, i) => ({ name, kind: kinds[i]! })),
    ['mafia', 'detective', 'townsperson', 'townsperson', 'townsperson'],
  );
  const [mafia, detective, firstVictim, lynched, abstainer] = [
    t.by('mafia'),
    t.by('detective'),
    t.by('townsperson', 0),
    t.by('townsperson', 1),
    t.by('townsperson', 2),
  ];
  const recorded: Recorded = new Map();
  const think = (seat: PlayerState, base: number) => {
    if (seat.kind !== 'ai' || !t.player(seat.id).alive) return;
    const suspicion = Object.fromEntries(t.state.players.filter((p) => p.id !== seat.id).map((p, i) => [p.id, base + i / 100]));
    t.must(engine.recordReasoning(t.state, { playerId: seat.id, decision: 'a move', text: 'a reason', at: t.at, suspicion }));
    const day = recorded.get(t.state.day) ?? new Map<string, Record<string, number>>();
    recorded.set(t.state.day, day.set(seat.id, suspicion));
  };
  const aiSeats = () => t.state.players.filter((p) => p.kind === 'ai');

  for (const seat of aiSeats()) think(seat, 0.1);
  t.must(t.act(mafia, firstVictim));
  t.must(t.act(detective, mafia));
  expect(t.state.phase).toBe('dawn');
  t.advanceTo('day');
  for (const seat of aiSeats()) think(seat, 0.3);
  t.advanceTo('vote');
  t.must(t.vote(mafia, lynched));
  t.must(t.vote(detective, lynched));
  t.must(t.vote(lynched, 'no_lynch'));
  for (const seat of aiSeats().slice(0, 1)) think(seat, 0.5);
  t.advanceTo('night');
  for (const seat of aiSeats()) think(seat, 0.7);
  t.must(t.act(mafia, abstainer));
  t.must(t.act(detective, abstainer));
  expect(t.state.phase).toBe('ended');
  return { t, mafia, detective, firstVictim, lynched, abstainer, recorded };
}

/** An offline game of `ai` house AI seats and `humans` people who never act (their votes are abstentions). */
export async function headlessGame(ai: number, humans: number, seed: number): Promise<GameState> {
  const seats = HOUSE_PLAYERS.slice(0, ai).map((voice, i) => ({
    id: `s${i}`,
    name: voice.name,
    brain: heuristicBrain(voice),
    offline: heuristicBrain(voice),
  }));
  const people = Array.from({ length: humans }, (_, i) => ({ id: `h${i}`, name: `Person ${i + 1}` }));
  const played = await playHeadless({ gameId: `pics-${seed}`, seed, seats, humans: people });
  if (!played.ok) throw new Error(played.error);
  return played.value;
}

/** The true faction of a player, from the roles the game revealed at its end. */
export function trueFaction(state: GameState, playerId: string): engine.Faction {
  const ended = state.log.find((e) => e.type === 'game_ended');
  if (ended?.type !== 'game_ended') throw new Error('the game has not ended');
  const role = ended.payload.roles[playerId];
  if (!role) throw new Error(`no role for ${playerId}`);
  return engine.getRole(role).faction;
}
