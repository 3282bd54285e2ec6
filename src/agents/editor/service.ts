import type { EditorConfig, LlmConfig } from '../../config.ts';
import type { EditorStore, OpenedSession } from '../../db/editor-store.ts';
import type { PersonaStore } from '../../db/persona-store.ts';
import { mayEdit, type Actor } from '../../persona/permissions.ts';
import type { Persona } from '../../persona/persona.ts';
import { err, ok, type Result } from '../../result.ts';
import { createProvider } from '../../llm/providers.ts';
import { callCost, type TokenBudget } from '../budget.ts';
import { metered, type CallRecord } from '../../llm/metered.ts';
import { runAgent, type EditorLlm } from './agent.ts';
import type { EditorError, EditorEvent, EditorEventHandler, RunEnd } from './events.ts';
import type { PersonaTester } from './persona-tester.ts';
import { SessionQueue } from './session-queue.ts';
import { EDITOR_TOOLS, previewOf, type Preview } from './tools/index.ts';
import type { EditorPlace, EditorSession, EditorTurn } from '../../db/editor-turns.ts';

/** Discord allows 4,000 characters to Nitro users; nothing longer is a real message. */
const MAX_MESSAGE_CHARS = 4000;

interface SendOptions {
  readonly onEvent?: EditorEventHandler;
  /** Stops the run (or the wait in the queue); what was done is kept. */
  readonly signal?: AbortSignal;
}

export interface EditorService {
  /** The persona, if this actor may open the editor on it; nothing changes. */
  mayOpen(personaId: string, actor: Actor): Promise<Result<Persona, EditorError>>;
  /** Holds the actor's conversation on the persona in `place`, which then talks to it alone. */
  open(personaId: string, actor: Actor, place: EditorPlace): Promise<Result<OpenedSession, EditorError>>;
  sessionInThread(threadId: string): Promise<EditorSession | null>;
  /** The session, if this actor owns it (wherever it is held now). */
  session(sessionId: string, actor: Actor): Promise<Result<EditorSession, EditorError>>;
  send(sessionId: string, actor: Actor, text: string, options?: SendOptions): Promise<Result<RunEnd, EditorError>>;
  events(sessionId: string, actor: Actor, text: string, options?: { readonly signal?: AbortSignal }): AsyncIterable<EditorEvent>;
  isRunning(sessionId: string): boolean;
  clear(sessionId: string, actor: Actor): Promise<Result<EditorSession, EditorError>>;
  /** Records that a run of the session was cut off by a restart: a failed turn, for the history. */
  interrupted(sessionId: string): Promise<void>;
  history(sessionId: string, actor: Actor): Promise<Result<EditorTurn[], EditorError>>;
  persona(sessionId: string, actor: Actor): Promise<Result<Persona, EditorError>>;
  preview(sessionId: string, actor: Actor): Promise<Result<Preview, EditorError>>;
}

export interface EditorServiceOptions {
  readonly personas: PersonaStore;
  readonly editor: EditorStore;
  readonly tester: PersonaTester;
  /** null: no model configured; sending says so, reading and previewing still work. */
  readonly llm: EditorLlm | null;
  /** Why there is no model, for the reply; default a generic sentence. */
  readonly noModelReason?: string;
  readonly maxRounds?: number;
  readonly historyTurns?: number;
  /** The daily budgets (the server's games use, or the DMs'; and the owner's): checked before each message, charged for every call. */
  readonly budget?: Pick<TokenBudget, 'refusal' | 'record'>;
  /** A call's ledger row that could not be written (the run goes on). */
  readonly onRecordError?: (error: unknown) => void;
}

export const INTERRUPTED_MESSAGE = 'Interrupted by a restart of the bot. Send your message again; what was done so far is kept.';

const SOMETHING_WRONG = 'Something went wrong on our side; what was done so far is kept. Please try again.';

export const NO_MODEL_MESSAGE =
  'No model is configured for the persona editor. Set ANTHROPIC_API_KEY (or EDITOR_PROVIDER=openai with OPENAI_API_KEY) and restart the bot; until then you can still view and preview the persona.';

/** The editor's model from the configuration, or why there is none. */
export function editorLlmFromConfig(config: { readonly editor: EditorConfig; readonly llm: LlmConfig }): Result<EditorLlm, string> {
  const provider = createProvider(config.editor.provider, config.llm, { sdkRetries: true });
  return provider.ok ? ok({ provider: provider.value, model: config.editor.model }) : provider;
}

export function createEditorService(options: EditorServiceOptions): EditorService {
  const { personas, editor } = options;
  const queue = new SessionQueue();

  /** The session, if this actor owns it. */
  async function owned(sessionId: string, actor: Actor): Promise<Result<EditorSession, EditorError>> {
    const session = await editor.session(sessionId);
    if (!session.ok) return err({ code: 'not_found', message: 'This editor session no longer exists; open the persona editor again.' });
    if (session.value.ownerId !== actor.userId) {
      return err({ code: 'forbidden', message: `Only <@${session.value.ownerId}>, who opened this editor, can use it.` });
    }
    return session;
  }

  async function editable(personaId: string, actor: Actor): Promise<Result<Persona, EditorError>> {
    const persona = await personas.get(actor, personaId);
    if (!persona.ok) return err({ code: 'not_found', message: persona.error.message });
    const allowed = mayEdit(actor, persona.value);
    if (!allowed.ok) return err({ code: allowed.error.code === 'read_only' ? 'read_only' : 'forbidden', message: allowed.error.message });
    return persona;
  }

  /** A call's row in the ledger; a failed write is reported, never thrown into the run. */
  function charge(session: EditorSession, record: CallRecord): void {
    const site = { guildId: session.guildId, userId: session.ownerId, personaId: session.personaId, purpose: 'editor' };
    options.budget?.record(callCost(site, record)).catch((error: unknown) => options.onRecordError?.(error));
  }

  async function answer(
    session: EditorSession,
    actor: Actor,
    text: string,
    onEvent: EditorEventHandler,
    signal?: AbortSignal,
  ): Promise<Result<RunEnd, EditorError>> {
    const persona = await editable(session.personaId, actor);
    if (!persona.ok) {
      onEvent({ type: 'error', ...persona.error });
      return persona;
    }
    // Stopped while it waited its turn: kept, but the model never sees it, now or later.
    if (signal?.aborted) {
      await editor.append(session.id, [{ kind: 'unsent', text }]);
      onEvent({ type: 'done', reason: 'stopped' });
      return ok('stopped');
    }
    // Saved first, whatever happens next: nothing the user wrote is lost.
    await editor.append(session.id, [{ kind: 'user', text }]);
    const end = await run(session, actor, onEvent, signal).catch((error: unknown): Result<never, EditorError> =>
      failed(onEvent, { code: 'internal', reason: 'internal', message: SOMETHING_WRONG, detail: String(error) }),
    );
    // A failure is recorded as one, for the history; the model is never shown it.
    if (!end.ok) await editor.append(session.id, [{ kind: 'failed', reason: end.error.reason ?? 'internal', text: end.error.message }]);
    return end;
  }

  /** The model's answer to the session's last user turn. */
  async function run(
    session: EditorSession,
    actor: Actor,
    onEvent: EditorEventHandler,
    signal?: AbortSignal,
  ): Promise<Result<RunEnd, EditorError>> {
    if (options.llm === null) {
      const message = options.noModelReason === undefined ? NO_MODEL_MESSAGE : `${NO_MODEL_MESSAGE} (${options.noModelReason})`;
      return failed(onEvent, { code: 'no_model', reason: 'no_model', message });
    }
    const refused = options.budget === undefined ? null : await options.budget.refusal(session.guildId, actor.userId);
    if (refused !== null) {
      return failed(onEvent, { code: 'budget', reason: 'budget', message: `${refused} The editor answers again then.` });
    }
    const { provider, model } = options.llm;
    const charged = options.budget ? metered(provider, { record: (call) => charge(session, call) }) : provider;
    return runAgent({
      llm: { provider: charged, model },
      store: editor,
      session,
      tools: EDITOR_TOOLS,
      context: { personaId: session.personaId, guildId: session.guildId, actor, personas, editor, tester: options.tester },
      maxRounds: options.maxRounds ?? 10,
      historyTurns: options.historyTurns ?? 60,
      onEvent,
      ...(signal && { signal }),
    });
  }

  const service: EditorService = {
    mayOpen: editable,

    async open(personaId, actor, place) {
      const persona = await editable(personaId, actor);
      if (!persona.ok) return persona;
      return ok(await editor.open(personaId, actor.userId, place));
    },

    sessionInThread: (threadId) => editor.sessionInThread(threadId),

    session: owned,

    async send(sessionId, actor, text, sendOptions = {}) {
      const onEvent: EditorEventHandler = sendOptions.onEvent ?? (() => {});
      const fail = (error: EditorError): Result<never, EditorError> => {
        onEvent({ type: 'error', ...error });
        return err(error);
      };
      const trimmed = text.trim();
      if (trimmed === '') return fail({ code: 'invalid', message: 'The message is empty; write what to change.' });
      if (trimmed.length > MAX_MESSAGE_CHARS) {
        return fail({
          code: 'invalid',
          message: `The message is ${trimmed.length} characters; the editor takes at most ${MAX_MESSAGE_CHARS}. Split it in two.`,
        });
      }
      const session = await owned(sessionId, actor);
      if (!session.ok) return fail(session.error);
      if (!session.value.active) return fail({ code: 'not_found', message: 'This conversation was cleared; write in the new one.' });
      return queue.run(
        sessionId,
        () => answer(session.value, actor, trimmed, onEvent, sendOptions.signal),
        (ahead) => onEvent({ type: 'queued', ahead }),
      );
    },

    events(sessionId, actor, text, eventOptions = {}) {
      return eventStream((onEvent) => service.send(sessionId, actor, text, { onEvent, ...eventOptions }));
    },

    isRunning: (sessionId) => queue.size(sessionId) > 0,

    async clear(sessionId, actor) {
      const session = await owned(sessionId, actor);
      if (!session.ok) return session;
      // After the running and queued messages, so a clear never cuts a run in half.
      return queue.run(sessionId, async () => {
        const fresh = await editor.clear(sessionId);
        return fresh.ok ? fresh : err({ code: 'not_found', message: fresh.error.message });
      });
    },

    async interrupted(sessionId) {
      await editor.append(sessionId, [{ kind: 'failed', reason: 'restart', text: INTERRUPTED_MESSAGE }]);
    },

    async history(sessionId, actor) {
      const session = await owned(sessionId, actor);
      return session.ok ? ok(await editor.turns(sessionId)) : session;
    },

    async persona(sessionId, actor) {
      const session = await owned(sessionId, actor);
      if (!session.ok) return session;
      const persona = await personas.get(actor, session.value.personaId);
      return persona.ok ? persona : err({ code: 'not_found', message: persona.error.message });
    },

    async preview(sessionId, actor) {
      const session = await owned(sessionId, actor);
      if (!session.ok) return session;
      const rendered = await personas.render(actor, session.value.personaId);
      return rendered.ok ? ok(previewOf(rendered.value)) : err({ code: 'not_found', message: rendered.error.message });
    },
  };
  return service;
}

function failed(onEvent: EditorEventHandler, error: EditorError): Result<never, EditorError> {
  onEvent({ type: 'error', code: error.code, message: error.message });
  return err(error);
}

/** A callback-driven run as an async iterator: events buffer until read; it ends with the run. */
async function* eventStream(start: (onEvent: EditorEventHandler) => Promise<unknown>): AsyncGenerator<EditorEvent> {
  const buffered: EditorEvent[] = [];
  let wake: (() => void) | null = null;
  const run = { finished: false }; // set by the run's own callback, so not a narrowable local
  const running = start((event) => {
    buffered.push(event);
    wake?.();
  }).finally(() => {
    run.finished = true;
    wake?.();
  });
  for (;;) {
    const next = buffered.shift();
    if (next !== undefined) {
      yield next;
      continue;
    }
    if (run.finished) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  await running;
}
