import { runToolLoop } from '../../llm/tool-loop.ts';
import type { LlmProvider } from '../../llm/types.ts';
import { ok } from '../../result.ts';
import type { Think } from './llm-brain.ts';
import { SEAT_TOOLS, type SeatToolContext } from './tools.ts';

/** Binds the tool loop to a provider (metered by the caller) and the seat's tools; the request's signal ends it. */
export function seatThinker(options: { provider: LlmProvider; maxToolRounds?: number }): Think {
  return async ({ signal, ...request }, context) => {
    const run = await runToolLoop<SeatToolContext>({
      provider: options.provider,
      request,
      tools: SEAT_TOOLS,
      context,
      ...(options.maxToolRounds !== undefined && { maxToolRounds: options.maxToolRounds }),
      ...(signal && { signal }),
    });
    return run.ok ? ok({ response: run.value.response, messages: run.value.messages }) : run;
  };
}
