import type { ServerPlace } from '../db/game-repository.ts';
import { AiDriver, type AiDriverOptions } from '../agents/driver/ai-driver.ts';
import type { Timers } from '../clock.ts';
import { mindStoreOver, type MindRows } from '../agents/minds.ts';
import { personaFromProfile } from '../agents/player/persona-from-profile.ts';
import { plainPersona, type PersonaPrompt } from '../agents/player/persona-prompt.ts';
import { AiSeats } from '../agents/ai-seats.ts';
import { HOUSE_PLAYERS } from '../agents/seats.ts';
import { Seating, type CostSink } from '../agents/seating.ts';
import type { TokenBudget } from '../agents/budget.ts';
import type { ModelPreference } from '../llm/providers.ts';
import type { LlmConfig } from '../config.ts';
import type { PersonaStore } from '../db/persona-store.ts';
import { announce, type PlayerState } from '../game/index.ts';
import type { Persona } from '../persona/persona.ts';
import { renderPersona } from '../persona/render.ts';
import type { GameSession } from '../session/game-session.ts';

export interface AiSeatDeps {
  readonly llm: LlmConfig;
  readonly personas: PersonaStore;
  readonly minds: MindRows;
  readonly driver: Pick<AiDriverOptions, 'speechGapMs' | 'speechTurnMs' | 'maxSpeechesPerDay' | 'onFallback' | 'onError'>;
  /** The games' clock: deadlines, pauses and model timeouts. */
  readonly clock: Timers;
  /** The per-server daily token budget; a seat over it plays on with the offline brain. */
  readonly budget?: TokenBudget;
  /** Where each model call's cost goes (the LlmCall table). */
  readonly cost?: CostSink;
}

/** Where a game's AI seats are seated: whose and which server's personas they play. */
type SeatingPlace = Pick<ServerPlace, 'guildId' | 'hostId'>;

/** Each AI seat's stored persona (by player id) as the host may see it: read once a seat, for its prompt, its model and its avatar. */
export async function seatPersonas(
  deps: Pick<AiSeatDeps, 'personas'>,
  place: SeatingPlace,
  players: readonly PlayerState[],
): Promise<Map<string, Persona>> {
  const actor = { userId: place.hostId, guildId: place.guildId, canManageServer: false };
  const personas = new Map<string, Persona>();
  await Promise.all(
    players.map(async (p) => {
      if (p.kind !== 'ai' || !p.personaId) return;
      const persona = await deps.personas.get(actor, p.personaId);
      if (persona.ok) personas.set(p.id, persona.value);
    }),
  );
  return personas;
}

/** The avatar each AI seat speaks under: its persona's avatarUrl (seats without one are left out). */
export function seatAvatars(personas: ReadonlyMap<string, Persona>): Map<string, string> {
  const avatars = new Map<string, string>();
  for (const [playerId, persona] of personas) if (persona.avatarUrl) avatars.set(playerId, persona.avatarUrl);
  return avatars;
}

/** The seat prompt of an AI player: its stored persona rendered as the host sees it, with the model it prefers; else a plain voice by name. */
function promptFor(player: PlayerState, stored: Persona | undefined): PersonaPrompt & { preference?: ModelPreference } {
  const rendered = stored && renderPersona(stored);
  if (stored && rendered?.ok) return { ...personaFromProfile(rendered.value), ...(stored.model && { preference: stored.model }) };
  return plainPersona(HOUSE_PLAYERS.find((v) => v.name === player.name) ?? { name: player.name, phrases: [] });
}

/**
 * Brains and minds for a started game's AI seats (minds reloaded from the players' rows, so a
 * restarted process goes on with the same beliefs), driven by the AiDriver over the session.
 */
export async function driveAiSeats(
  deps: AiSeatDeps,
  session: GameSession,
  place: SeatingPlace,
  personas: ReadonlyMap<string, Persona>,
  thinking?: AiDriverOptions['thinking'],
): Promise<AiDriver> {
  const state = session.state;
  const seating = new Seating(
    deps.llm,
    { guildId: place.guildId, gameId: state.id },
    { clock: deps.clock, ...(deps.budget && { budget: deps.budget }), ...(deps.cost && { cost: deps.cost }) },
  );
  const ai = state.players.filter((p) => p.kind === 'ai');
  const seats = ai.map((p) => seating.seat(p, promptFor(p, personas.get(p.id))));
  // Once a game (a notice's topic is told once), also when a restarted bot seats them again.
  for (const { notice } of seats) if (notice) await session.submit((s, at) => announce(s, { ...notice, at }));
  const aiSeats = new AiSeats(seats, mindStoreOver(deps.minds));
  await aiSeats.load(state.id);
  const summarizer = seating.summarizer();
  return new AiDriver(session, aiSeats, {
    clock: deps.clock,
    ...deps.driver,
    ...(summarizer && { summarizer }),
    ...(thinking && { thinking }),
  });
}
