import type { DecisionRequest } from '../decision.ts';

/** The characters each answer field may hold. */
interface FieldLimits {
  readonly observations: number;
  readonly analysis: number;
  readonly reason: number;
  readonly strategy: number;
  readonly speech: number;
}

/**
 * Lengths the answer fields are asked to keep (characters): the most any turn allows. They are
 * told to the model in the schema's descriptions, not as `maxLength`: strict structured outputs
 * refuse length keywords on some providers. Longer text is cut, never refused, so one wordy field
 * costs no re-ask.
 */
export const FIELD_LIMITS: FieldLimits = {
  observations: 120,
  analysis: 320,
  reason: 50,
  strategy: 120,
  speech: 300,
};

/**
 * Turns that need less reasoning, told with the task (the schema stays the same for every turn, or
 * the providers' caches would break): a seat that already reasoned aloud today weighs only what
 * changed since (its vote, its second speech), last words need no plan for later turns, and the
 * first night has nothing to observe yet.
 */
const SETTLED: FieldLimits = { ...FIELD_LIMITS, observations: 80, analysis: 200, strategy: 80 };
const FIRST_NIGHT: FieldLimits = { ...FIELD_LIMITS, observations: 40, analysis: 160, strategy: 80 };

/** Whether the seat has spoken in today's discussion: its reads of the day are formed and written. */
function spokeToday(request: DecisionRequest): boolean {
  const { events, me } = request.view;
  const start = events.findLastIndex((e) => e.type === 'phase_started' && e.payload.phase === 'day');
  return start >= 0 && events.slice(start).some((e) => e.type === 'speech' && e.payload.channel === 'town' && e.payload.playerId === me.id);
}

/** The first night: the game has only just begun, and nobody has a record to read yet. */
export function firstNight(request: DecisionRequest): boolean {
  return (request.kind === 'night' || request.kind === 'mafia_chat') && request.view.day === 1;
}

/** The lengths this turn's fields may hold. */
export function limitsOf(request: DecisionRequest): FieldLimits {
  switch (request.kind) {
    case 'vote':
    case 'speak':
      return spokeToday(request) ? SETTLED : FIELD_LIMITS;
    case 'defense':
      return FIELD_LIMITS;
    case 'last_words':
      return SETTLED;
    case 'night':
    case 'mafia_chat':
      return firstNight(request) ? FIRST_NIGHT : FIELD_LIMITS;
  }
}

const TOLD: readonly (keyof FieldLimits)[] = ['observations', 'analysis', 'strategy'];

/** The task's line naming the lengths this turn keeps, when they are below the schema's; null when they are not. */
export function lengthsLineOf(request: DecisionRequest): string | null {
  const limits = limitsOf(request);
  const shorter = TOLD.filter((field) => limits[field] < FIELD_LIMITS[field]);
  if (shorter.length === 0) return null;
  return `Lengths this turn: ${shorter.map((field) => `${field} ≤ ${limits[field]}`).join(', ')} characters.`;
}
