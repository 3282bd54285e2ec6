import type { Message } from 'discord.js';
import { isSpeechRewrite, spokenText, type GameEvent, type GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { personaSpeechAsBot } from './presenters/persona-speech.ts';

/**
 * Where the Mafia chat by DM (no thread), each line reaches the other Mafia as a DM from the bot.
 * Those copies follow their line: edited with it, deleted with it, so a withdrawn line is not left
 * in anyone's DMs. Kept per live game and forgotten when it ends; a restart forgets them too (its
 * copies then stay as sent), so the bound is the lines of the games running in this process.
 */
export class MafiaDmCopies {
  private readonly byGame = new Map<string, Map<number, Message[]>>();

  constructor(private readonly log: Logger) {}

  /** A copy of the line at `seq` was sent. */
  remember(gameId: string, seq: number, copy: Message): void {
    let lines = this.byGame.get(gameId);
    if (!lines) {
      lines = new Map<number, Message[]>();
      this.byGame.set(gameId, lines);
    }
    lines.set(seq, [...(lines.get(seq) ?? []), copy]);
  }

  /** The copies of lines these events edited or deleted, brought in line with them. */
  async follow(gameId: string, events: readonly GameEvent[], state: GameState): Promise<void> {
    const lines = this.byGame.get(gameId);
    if (!lines) return;
    for (const e of events) {
      if (!isSpeechRewrite(e)) continue;
      const copies = lines.get(e.payload.seq) ?? [];
      const line = state.log[e.payload.seq - 1];
      const speaker = line?.type === 'speech' ? state.players.find((p) => p.id === line.payload.playerId) : undefined;
      for (const copy of copies) {
        try {
          if (e.type === 'speech_deleted' || line?.type !== 'speech') await copy.delete();
          else await copy.edit(personaSpeechAsBot(`${speaker?.name ?? 'someone'} (Mafia)`, spokenText(line.payload)));
        } catch (error) {
          this.log.warn(
            `${gameId}: a Mafia DM copy of a withdrawn line was not ${e.type === 'speech_deleted' ? 'deleted' : 'edited'}: ${String(error)}`,
          );
        }
      }
      if (e.type === 'speech_deleted') lines.delete(e.payload.seq);
    }
  }

  forget(gameId: string): void {
    this.byGame.delete(gameId);
  }
}
