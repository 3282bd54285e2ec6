import { getRole, type GameEventOf, type GameState, type PlayerId } from '../game/index.ts';
import { plainText } from '../plain-text.ts';

type Reasoning = GameEventOf<'reasoning'>;

/** The seat's last decision that recorded what it guessed and saw, if any did (older logs have none). */
function lastRead(state: GameState, seatId: PlayerId): Reasoning | undefined {
  return state.log.findLast(
    (e): e is Reasoning => e.type === 'reasoning' && e.payload.playerId === seatId && (!!e.payload.roleGuesses || !!e.payload.blocs),
  );
}

/**
 * One seat's role guesses and voting blocs at its last decision, as the director's cut says them
 * under its read of the table: each guess marked right or wrong against the revealed roles. Null
 * when the seat left neither.
 */
export function guessLine(state: GameState, seatId: PlayerId): string | null {
  const read = lastRead(state, seatId);
  if (!read) return null;
  const name = (id: PlayerId) => plainText(state.players.find((p) => p.id === id)?.name ?? id);
  const parts: string[] = [];
  const guesses = Object.entries(read.payload.roleGuesses ?? {});
  if (guesses.length > 0) {
    const said = guesses.map(([id, role]) => {
      const truth = state.players.find((p) => p.id === id)?.role;
      return `${name(id)} likely ${getRole(role).name}${truth ? (truth === role ? ' (right)' : ` (wrong: ${getRole(truth).name})`) : ''}`;
    });
    parts.push(`role guesses: ${said.join(', ')}`);
  }
  const blocs = read.payload.blocs ?? [];
  if (blocs.length > 0) {
    parts.push(
      `voting blocs: ${blocs.map((b) => `${name(b.players[0])} and ${name(b.players[1])} (${b.together} of ${b.of} days)`).join(', ')}`,
    );
  }
  if (parts.length === 0) return null;
  return `  - At its last decision (${read.payload.phase === 'night' ? 'night' : 'day'} ${read.payload.day}), ${parts.join('; ')}.`;
}
