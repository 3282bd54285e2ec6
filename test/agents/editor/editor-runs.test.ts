import { describe, expect, it, vi } from 'vitest';
import type { EditorEvent } from '../../../src/agents/editor/events.ts';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { stringContaining } from '../../support/matchers.ts';
import { alice, editorWorld } from './editor-world.ts';

describe("the persona editor's runs: queued, stopped, capped or failed", () => {
  const w = editorWorld();

  it('GIVEN a run in progress WHEN a second message arrives THEN it is queued, answered after the first, and both are kept in order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    w.fake.handle(async (request) => {
      if (request.lastUserText === 'first') await gate;
      return reply.text(`answer to ${request.lastUserText}`);
    });
    const first = w.send('first');
    await vi.waitFor(() => expect(w.fake.requests).toHaveLength(1), { timeout: 30_000 });
    expect(w.editor.isRunning(w.session.id)).toBe(true);
    const second = w.send('second');
    release();
    const [one, two] = await Promise.all([first, second]);
    expect(two.events[0]).toEqual({ type: 'queued', ahead: 1 });
    expect(one.result.ok && two.result.ok).toBe(true);
    expect((await w.store.turns(w.session.id)).map((t) => ('text' in t ? t.text : t.kind))).toEqual([
      'first',
      'answer to first',
      'second',
      'answer to second',
    ]);
    expect(w.editor.isRunning(w.session.id)).toBe(false);
  });

  it('GIVEN a run that made a change WHEN it is stopped during the next model call THEN the change and its turns are kept and the run ends as stopped', async () => {
    const stop = new AbortController();
    w.fake.enqueue(reply.tool('update_style_notes', { decisionStyle: 'Numbers first, always.' }));
    w.fake.handle(() => {
      stop.abort();
      return reply.hang();
    });
    const { result, events } = await w.send('Change her decision style, then preview', alice, stop.signal);
    expect(result).toEqual({ ok: true, value: 'stopped' });
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'stopped' });
    expect((await w.reload(w.ada)).profile.decisionStyle).toBe('Numbers first, always.');
    expect(await w.kinds()).toEqual(['user', 'tool_call', 'tool_result']);

    w.fake.handle(() => reply.text('Carrying on.'));
    expect((await w.send('Carry on')).result.ok).toBe(true);
  });

  it('GIVEN a reply still streaming WHEN it is stopped after its first words THEN the words that arrived are kept as the assistant turn', async () => {
    const stop = new AbortController();
    const full = 'Her voice is bright, quick and precise, and she counts the votes aloud before casting hers.';
    w.fake.enqueue(reply.text(full, { chunkDelayMs: 30 }));
    const events: EditorEvent[] = [];
    const result = await w.editor.send(w.session.id, alice, 'Describe her voice', {
      signal: stop.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'text_delta') stop.abort();
      },
    });
    expect(result).toEqual({ ok: true, value: 'stopped' });
    const [, said] = await w.store.turns(w.session.id);
    expect(said).toMatchObject({ kind: 'assistant_text' });
    expect(full.startsWith(said?.kind === 'assistant_text' ? said.text : '-')).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'stopped' });
  });

  it('GIVEN the events iterator WHEN a message is sent through it THEN it yields the same events in order and ends with the run', async () => {
    w.fake.enqueue(reply.tool('get_persona', {}), reply.text('Read.'));
    const types: string[] = [];
    for await (const event of w.editor.events(w.session.id, alice, 'Read her')) types.push(event.type);
    expect(types[0]).toBe('tool_call');
    expect(types.slice(1, 2)).toEqual(['tool_result']);
    expect(types.at(-1)).toBe('done');
  });

  it('GIVEN a model that keeps calling tools WHEN the round cap is reached THEN it must answer without tools and the run ends at the cap', async () => {
    w.fake.handle((request) =>
      request.body['tool_choice'] && (request.body['tool_choice'] as { type: string }).type === 'none'
        ? reply.text('Stopping here.')
        : reply.tool('get_persona', {}),
    );
    const { result } = await w.send('Loop forever');
    expect(result).toEqual({ ok: true, value: 'round_cap' });
    expect(w.fake.requests).toHaveLength(6);
    expect(w.fake.last.body['tool_choice']).toEqual({ type: 'none' });
  });

  it('GIVEN a model that declines, or a provider error WHEN sent THEN the run fails with a plain sentence, the provider’s words kept as detail', async () => {
    w.fake.enqueue(reply.text('I would rather not.', { stop: 'refusal' }), reply.status(400, 'prompt is too long'));
    expect((await w.send('Make her cruel')).result).toEqual({
      ok: false,
      error: { code: 'llm_failed', reason: 'refused', message: stringContaining('declined'), detail: stringContaining('refusal') },
    });
    const { result, events } = await w.send('Make her crueller');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'llm_failed',
        reason: 'rejected',
        message: stringContaining('refused the request'),
        detail: stringContaining('prompt is too long'),
      },
    });
    expect(events.at(-1)).toEqual({ type: 'error', code: 'llm_failed', message: stringContaining('refused the request') });
    expect(JSON.stringify(events)).not.toMatch(/(?<!\d)400(?!\d)/);
    expect(await w.kinds()).toEqual(['user', 'assistant_text', 'failed', 'user', 'failed']);
  });
});
