import type { Result } from '../result.ts';
import { fail, type GameError } from './errors.ts';
import type { GameState, PlayerId } from './state.ts';

/** "1 message", "3,000 characters". */
function plural(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What one person says in a phase is bounded (messages and characters, both rules), so no one
 * can flood the AI players' prompts or drain the server's token budget by typing. `adding` is the
 * message about to enter (or, for an edit, the new text of the speech at `replacing`, which then
 * does not count as it was). A deleted message still counts as a message, not by its characters.
 */
export function overChatLimit(
  state: GameState,
  playerId: PlayerId,
  adding: { readonly characters: number },
  replacing?: number,
): Result<never, GameError> | null {
  const start = state.log.findLastIndex((e) => e.type === 'phase_started');
  let messages = 0;
  let characters = 0;
  for (const e of state.log.slice(start + 1)) {
    if (e.type !== 'speech' || e.payload.playerId !== playerId || e.payload.channel !== 'town' || e.seq === replacing) continue;
    messages++;
    if (!e.payload.deleted) characters += e.payload.text.length;
  }
  const { chatMessages, chatCharacters } = state.settings.rules;
  if (messages >= chatMessages || characters + adding.characters > chatCharacters) {
    return fail(
      'chat_limit',
      `You have said all the AI players will read this phase (${plural(chatMessages, 'message')} or ${plural(chatCharacters, 'character')}); the rest stays in the channel for the people.`,
    );
  }
  return null;
}
