import { afterEach, beforeAll, beforeEach } from 'vitest';
import type { EditorEvent } from '../../../src/agents/editor/events.ts';
import { createPersonaTester } from '../../../src/agents/editor/persona-tester.ts';
import { createEditorService, type EditorService } from '../../../src/agents/editor/service.ts';
import type { EditorSession } from '../../../src/db/editor-turns.ts';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import { createEditorStore, type EditorStore } from '../../../src/db/editor-store.ts';
import type { Database } from '../../../src/db/open-database.ts';
import { createPersonaStore, type PersonaStore } from '../../../src/db/persona-store.ts';
import type { Actor } from '../../../src/persona/permissions.ts';
import type { Persona } from '../../../src/persona/persona.ts';
import { startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import type { FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { arc, content, part, trait } from '../../persona/fixtures.ts';
import { testBackends } from '../../db/test-databases.ts';
import type { Result } from '../../../src/result.ts';

export const alice: Actor = { userId: '111', guildId: '900', canManageServer: false };
export const bob: Actor = { userId: '222', guildId: '900', canManageServer: false };
export const THREAD = { guildId: '900', channelId: '500', threadId: '700' };
export const GRUFF_VOICE =
  'Gruff, clipped and dry, with short sentences that land like gavel blows. Counts on her fingers, scoffs at vague claims, and saves her rare praise for players who show their working.';

export const anthropic = (fake: FakeLlmServer) =>
  createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, logLevel: 'off' });

export function must<T>(r: Result<T, { message: string }>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

export const results = (events: readonly EditorEvent[]) =>
  events.filter((e): e is Extract<EditorEvent, { type: 'tool_result' }> => e.type === 'tool_result');

/**
 * What every editor test starts from, made anew before each: alice's persona Ada (two parts, a
 * trait, an arc) and another of hers, an editor session on Ada in a thread, and an editor on the
 * Anthropic wire fake (its tester on the same fake: the tester's calls are the non-streaming ones).
 */
class EditorWorld {
  db!: Database;
  personas!: PersonaStore;
  store!: EditorStore;
  fake!: FakeLlmServer;
  editor!: EditorService;
  ada!: Persona;
  other!: Persona;
  session!: EditorSession;
  /** Which test this is: names are unique per test, as the database is shared by the file. */
  n = 0;

  async send(text: string, actor: Actor = alice, signal?: AbortSignal) {
    const events: EditorEvent[] = [];
    const result = await this.editor.send(this.session.id, actor, text, { onEvent: (e) => events.push(e), ...(signal && { signal }) });
    return { result, events };
  }

  async kinds() {
    return (await this.store.turns(this.session.id)).map((t) => t.kind);
  }

  async reload(persona: Persona) {
    return must(await this.personas.get(alice, persona.id));
  }
}

/** The world of one test file, set up by the hooks it registers. */
export function editorWorld(): EditorWorld {
  const w = new EditorWorld();
  beforeAll(async () => {
    const backend = testBackends('editor_service_test')[0]!;
    w.db = await backend.open();
    w.personas = createPersonaStore(w.db.prisma);
    w.store = createEditorStore(w.db.prisma);
    // Runs after the suite, and only if the database opened.
    return () => w.db.close();
  });

  beforeEach(async () => {
    w.n += 1;
    const n = w.n;
    w.fake = await startFakeAnthropic();
    const provider = anthropic(w.fake);
    w.editor = createEditorService({
      personas: w.personas,
      editor: w.store,
      tester: createPersonaTester({ provider, model: 'game-model' }),
      llm: { provider, model: 'editor-model' },
      maxRounds: 6,
    });
    const withArc = content(
      {
        parts: [part(`soul ${n}`, 'soul'), part(`flaw ${n}`, 'flaw')],
        traits: [trait(`methodical ${n}`)],
        arc: { arc: { ...arc(), name: `Arc ${n}` }, stage: 0 },
      },
      `Ada ${n}`,
    );
    w.ada = must(await w.personas.create(alice, { scope: { kind: 'private' }, content: withArc }));
    w.other = must(await w.personas.create(alice, { scope: { kind: 'private' }, content: content({}, `Other ${n}`) }));
    w.session = must(await w.editor.open(w.ada.id, alice, THREAD)).session;
  });
  afterEach(async () => w.fake.close());
  return w;
}
