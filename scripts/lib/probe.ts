import type { LlmError, LlmProvider } from '../../src/llm/types.ts';
import { ok, type Result } from '../../src/result.ts';

/** One tiny call with a short deadline: is the model there at all? */
export async function probeModel(provider: LlmProvider, model: string, timeoutMs = 20_000): Promise<Result<void, LlmError>> {
  const result = await provider.complete({
    model,
    system: { stable: 'Answer with one word.' },
    messages: [{ role: 'user', content: 'Ready?' }],
    maxTokens: 5,
    deadline: Date.now() + timeoutMs,
  });
  return result.ok ? ok(undefined) : result;
}
