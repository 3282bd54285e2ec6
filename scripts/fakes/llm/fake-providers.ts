import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../../src/llm/openai-provider.ts';
import type { LlmProvider, ProviderName } from '../../../src/llm/types.ts';
import { startFakeAnthropic } from './fake-anthropic.ts';
import type { FakeHandler, FakeLlmServer, FakeReply } from './fake-llm-server.ts';
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
 * (they print unparsable stream events at `error`). `now` is the fake's prompt-cache clock (default `Date.now`).
 */
export async function startFakeProvider(
  name: ProviderName,
  options: { script?: FakeHandler | readonly FakeReply[]; timeoutMs?: number; maxRetries?: number; now?: () => number } = {},
): Promise<FakeProvider> {
  const common = { timeoutMs: options.timeoutMs ?? 5_000, maxRetries: options.maxRetries ?? 2, logLevel: 'off' as const };
  if (name === 'openai') {
    const fake = await startFakeOpenAi(options.script, { now: options.now });
    return { fake, provider: createOpenAiProvider({ ...common, apiKey: 'test-key', baseURL: fake.baseURL }) };
  }
  const fake = await startFakeAnthropic(options.script, { now: options.now });
  return { fake, provider: createAnthropicProvider({ ...common, apiKey: 'test-key', baseURL: fake.baseURL }) };
}
