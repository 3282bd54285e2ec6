import type { Think } from '../../src/agents/player/llm-brain.ts';
import type { LlmRequest } from '../../src/llm/types.ts';
import { ok } from '../../src/result.ts';

export interface CapturedPrompt {
  readonly seatId: string;
  readonly text: string;
}

/**
 * An in-process stand-in for a model (used where thousands of games make HTTP too slow):
 * it records every prompt, and answers the first legal option with marked secrets in its
 * private fields and, for the Mafia thread, in its speech, so leaks can be traced.
 */
export function stubThink(seatId: string, captured: CapturedPrompt[]): Think {
  let n = 0;
  return (request: LlmRequest, context) => {
    const text = [
      request.system.shared ?? '',
      request.system.stable,
      request.system.dynamic ?? '',
      ...request.messages.map((m) => m.content),
    ].join('\n');
    captured.push({ seatId, text });
    const task = request.messages.map((m) => m.content).join('\n');
    const options = /^Options for "decision": (.*)\.$/m.exec(task)?.[1]?.split(', ') ?? ['(nobody)'];
    const silent = /speech: leave it empty/.test(task);
    const mafiaChat = task.includes("# Your task: Propose tonight's kill");
    const tag = `${seatId}-${n++}`;
    const structured = {
      observations: 'Noted.',
      analysis: `⟦reasoning ${tag}⟧`,
      beliefs: [],
      strategy: 'Play on.',
      decision: options[0],
      speech: silent ? '' : mafiaChat ? `⟦mafia ${tag}⟧` : `I am thinking, ${context.view.me.name} out.`,
      urgency: 1,
    };
    return Promise.resolve(
      ok({
        response: {
          text: JSON.stringify(structured),
          toolCalls: [],
          structured,
          stopReason: 'end_turn' as const,
          usage: { inputTokens: Math.ceil(text.length / 4), outputTokens: 60, cachedInputTokens: 0 },
          model: 'stub',
          latencyMs: 0,
        },
        messages: request.messages,
      }),
    );
  };
}
