/** The bot on the simulator with its persona editor on the Anthropic wire fake, and alice's own personas. */
import { expect } from 'vitest';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import type { Persona } from '../../../src/persona/persona.ts';
import { content } from '../../persona/fixtures.ts';
import { startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import type { FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';

export interface EditorWorld {
  readonly w: World;
  readonly fake: FakeLlmServer;
  /** A private persona of alice's. */
  persona(name: string): Promise<Persona>;
  /** `/persona edit` in #other: the thread it opened (the newest of that name). */
  openThread(persona: Persona): Promise<{ id: string }>;
  /** The bot's messages in a channel or thread, oldest first. */
  botMessages(channel: { id: string }): SimMessage[];
  close(): Promise<void>;
}

export async function startEditorWorld(options: { seed?: number } = {}): Promise<EditorWorld> {
  const fake = await startFakeAnthropic();
  const provider = createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, logLevel: 'off' });
  const w = await startWorld({ editorLlm: { provider, model: 'editor-model' }, model: fake, ...options });
  const alice = { userId: w.sim.user('alice').id, guildId: null, canManageServer: false };
  return {
    w,
    fake,
    async persona(name) {
      const created = await w.personas.create(alice, { scope: { kind: 'private' }, content: content({}, name) });
      if (!created.ok) throw new Error(created.error.message);
      return created.value;
    },
    async openThread(persona) {
      const opened = await w.sim
        .user('alice')
        .slash('other', 'persona', { subcommand: 'edit', options: { persona: persona.id } })
        .reply();
      const id = /The editor is open in <#(\d+)>/.exec(messageText(opened))?.[1];
      expect(id, messageText(opened)).toBeDefined();
      return { id: id ?? '' };
    },
    botMessages: (channel) => w.sim.messagesIn(channel).filter((m) => m.authorId === w.client.user.id),
    close: () => w.close(),
  };
}
