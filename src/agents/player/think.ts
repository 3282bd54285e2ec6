import { runToolLoop, type CallRecord } from '../../llm/tool-loop.ts';
import type { LlmProvider } from '../../llm/types.ts';
import { ok } from '../../result.ts';
import type { Think } from './llm-brain.ts';
import { SEAT_TOOLS, type SeatToolContext } from './tools.ts';

/** Binds the tool loop to a provider, the seat's tools and a cost recorder; the request's signal ends it. */
export function seatThinker(options: { provider: LlmProvider; maxToolRounds?: number; onCall?: (record: CallRecord) => void }): Think {
  return async ({ signal, ...request }, context) => {
    const run = await runToolLoop<SeatToolContext>({
      provider: options.provider,
      request,
      tools: SEAT_TOOLS,
      context,
      ...(options.maxToolRounds !== undefined && { maxToolRounds: options.maxToolRounds }),
      ...(signal && { signal }),
      ...(options.onCall && { onCall: options.onCall }),
    });
    return run.ok ? ok({ response: run.value.response, messages: run.value.messages }) : run;
  };
}
