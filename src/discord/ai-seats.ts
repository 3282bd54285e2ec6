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

/** The seat prompt of an AI player: its stored persona rendered as the host sees it, with the model it prefers; else a plain voice by name. */
async function promptFor(
  deps: AiSeatDeps,
  place: SeatingPlace,
  player: PlayerState,
): Promise<PersonaPrompt & { preference?: ModelPreference }> {
  if (player.personaId) {
    const actor = { userId: place.hostId, guildId: place.guildId, canManageServer: false };
    // One read serves both: rendering is pure, and a start seats every AI at once.
    const stored = await deps.personas.get(actor, player.personaId);
    const rendered = stored.ok ? renderPersona(stored.value) : null;
    if (stored.ok && rendered?.ok) {
      const model = stored.value.model;
      return { ...personaFromProfile(rendered.value), ...(model && { preference: model }) };
    }
  }
  return plainPersona(HOUSE_PLAYERS.find((v) => v.name === player.name) ?? { name: player.name, phrases: [] });
}

/** The avatar each AI seat speaks under: its persona's avatarUrl, as the host may see it (seats without one are left out). */
export async function seatAvatars(
  deps: Pick<AiSeatDeps, 'personas'>,
  place: SeatingPlace,
  players: readonly PlayerState[],
): Promise<Map<string, string>> {
  const avatars = new Map<string, string>();
  const actor = { userId: place.hostId, guildId: place.guildId, canManageServer: false };
  for (const p of players) {
    if (p.kind !== 'ai' || !p.personaId) continue;
    const persona = await deps.personas.get(actor, p.personaId);
    if (persona.ok && persona.value.avatarUrl) avatars.set(p.id, persona.value.avatarUrl);
  }
  return avatars;
}

/**
 * Brains and minds for a started game's AI seats (minds reloaded from the players' rows, so a
 * restarted process goes on with the same beliefs), driven by the AiDriver over the session.
 */
export async function driveAiSeats(
  deps: AiSeatDeps,
  session: GameSession,
  place: SeatingPlace,
  thinking?: AiDriverOptions['thinking'],
): Promise<AiDriver> {
  const state = session.state;
  const seating = new Seating(
    deps.llm,
    { guildId: place.guildId, gameId: state.id },
    { clock: deps.clock, ...(deps.budget && { budget: deps.budget }), ...(deps.cost && { cost: deps.cost }) },
  );
  const ai = state.players.filter((p) => p.kind === 'ai');
  const seats = await Promise.all(ai.map(async (p) => seating.seat(p, await promptFor(deps, place, p))));
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
