import type { Think } from '../../src/agents/player/llm-brain.ts';
import type { PlayerView, RoleId } from '../../src/game/index.ts';
import { getRole } from '../../src/game/index.ts';
import { ok } from '../../src/result.ts';
import { playingAnswer } from '../../scripts/fakes/llm/playing-answer.ts';
import { promptText } from '../../scripts/lib/entitled-facts.ts';

/** One decision prompt as a seat sent it, with the view it was built from. */
export interface RecordedPrompt {
  readonly seatId: string;
  readonly view: PlayerView;
  readonly text: string;
}

const CLAIMABLE: readonly RoleId[] = ['detective', 'doctor', 'townsperson', 'vigilante'];

/**
 * An in-process model that records each decision prompt with its view and plays like the wire
 * fakes' playing model; every third speech claims a role (its own or a fake one) and calls a
 * living player's result, so the record has claims of every kind to keep.
 */
export function recordingThink(seatId: string, recorded: RecordedPrompt[]): Think {
  let n = 0;
  return (request, context) => {
    const text = promptText(request);
    recorded.push({ seatId, view: context.view, text });
    const index = n++;
    const task = request.messages.map((m) => m.content).join('\n');
    const others = context.view.seats.filter((s) => s.alive && s.id !== seatId);
    const claim = (): string => {
      const role = index % 2 === 0 && context.view.me.role ? context.view.me.role : (CLAIMABLE[index % CLAIMABLE.length] ?? 'townsperson');
      const other = others[index % Math.max(1, others.length)];
      return `I'm the ${getRole(role).name}, and ${other?.name ?? 'nobody'} is ${index % 4 === 0 ? 'mafia' : 'innocent'}.`;
    };
    const structured = playingAnswer(task, request.output?.schema, index, {
      speech: (decision) => (index % 3 === 0 ? claim() : `My read stands on ${decision}.`),
    });
    return Promise.resolve(
      ok({
        response: {
          text: '',
          toolCalls: [],
          structured,
          stopReason: 'end_turn' as const,
          usage: { inputTokens: Math.ceil(text.length / 4), outputTokens: 100, cachedInputTokens: 0 },
          model: 'recording',
          latencyMs: 0,
        },
        messages: request.messages,
      }),
    );
  };
}
