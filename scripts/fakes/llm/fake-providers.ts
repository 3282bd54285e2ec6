import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../../src/llm/openai-provider.ts';
import type { LlmProvider, ProviderName } from '../../../src/llm/types.ts';
import { startFakeAnthropic } from './fake-anthropic.ts';
import type { FakeHandler, FakeLlmServer, FakeReply, FakeServerOptions } from './fake-llm-server.ts';
import { startFakeOpenAi } from './fake-openai.ts';

export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic'];

export interface FakeProvider {
  /** The real provider (real SDK) pointed at `fake`. */
  readonly provider: LlmProvider;
  readonly fake: FakeLlmServer;
}

/**
 * A fake server of the provider's wire protocol and the real provider talking to it.
 * Close `fake` after the test. Short timeouts by default, and the SDKs' logging off
 * (they print unparsable stream events at `error`). `now`, `clock` and `latency` set the fake's time (`FakeServerOptions`).
 */
export async function startFakeProvider(
  name: ProviderName,
  options: { script?: FakeHandler | readonly FakeReply[]; timeoutMs?: number; maxRetries?: number } & FakeServerOptions = {},
): Promise<FakeProvider> {
  const { script, timeoutMs, maxRetries, ...server } = options;
  const common = { timeoutMs: timeoutMs ?? 5_000, maxRetries: maxRetries ?? 2, logLevel: 'off' as const };
  if (name === 'openai') {
    const fake = await startFakeOpenAi(script, server);
    return { fake, provider: createOpenAiProvider({ ...common, apiKey: 'test-key', baseURL: fake.baseURL }) };
  }
  const fake = await startFakeAnthropic(script, server);
  return { fake, provider: createAnthropicProvider({ ...common, apiKey: 'test-key', baseURL: fake.baseURL }) };
}
