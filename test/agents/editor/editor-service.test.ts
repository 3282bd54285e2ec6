import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EditorEvent } from '../../../src/agents/editor/events.ts';
import { createPersonaTester } from '../../../src/agents/editor/persona-tester.ts';
import { createEditorService } from '../../../src/agents/editor/service.ts';
import type { Persona } from '../../../src/persona/persona.ts';
import { reply, type FakeRequest } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeProvider } from '../../../scripts/fakes/llm/fake-providers.ts';
import { part, trait } from '../../persona/fixtures.ts';
import { stringContaining } from '../../support/matchers.ts';
import { alice, anthropic, editorWorld, GRUFF_VOICE, must, results, THREAD } from './editor-world.ts';

// What the tests read of the list_parts and list_test_inputs results.
const partsListed = z.object({ parts: z.array(z.object({ name: z.string() })) });
const testInputsListed = z.object({ testInputs: z.array(z.unknown()) });

describe("the persona editor's conversation, against the Anthropic wire protocol with SSE streaming", () => {
  const w = editorWorld();

  it('GIVEN a greeting WHEN sent THEN the streamed reply is saved after the user turn, and the model was told which persona it edits', async () => {
    w.fake.enqueue(reply.text('Hello! Tell me what to change about Ada.'));
    const { result, events } = await w.send('Hi there');
    expect(result).toEqual({ ok: true, value: 'end_turn' });
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Hello! Tell me what to change about Ada.');
    expect(events.at(-1)).toEqual({ type: 'done', reason: 'end_turn' });
    expect(await w.kinds()).toEqual(['user', 'assistant_text']);
    expect(w.fake.last.stream).toBe(true);
    expect(w.fake.last.system).toContain(`ID: ${w.ada.id}`);
    expect(w.fake.last.system).toContain(`Name: Ada ${w.n}`);
    expect(w.fake.last.system).toContain('200–300');
    expect(w.fake.last.tools).toEqual(expect.arrayContaining(['get_persona', 'update_play_style', 'run_test', 'preview']));
  });

  it('GIVEN questions about the persona WHEN the model reads it THEN get_persona, list_parts, list_test_inputs and preview return what is stored', async () => {
    must(await w.store.createTestInput(w.ada.id, { content: 'Two players accuse you. Respond.', role: 'mafia' }));
    w.fake.enqueue(
      reply.tools([
        { name: 'get_persona', input: {} },
        { name: 'list_parts', input: {} },
        { name: 'list_test_inputs', input: {} },
        { name: 'preview', input: {} },
      ]),
      reply.text('Her voice is bright and precise.'),
    );
    const { events } = await w.send('What does she sound like?');
    const [persona, parts, tests, preview] = results(events);
    expect(JSON.parse(persona!.text)).toMatchObject({
      id: w.ada.id,
      version: 1,
      profile: { playStyle: { voice: w.ada.profile.playStyle.voice } },
    });
    expect(partsListed.parse(JSON.parse(parts!.text)).parts.map((p) => p.name)).toEqual([`soul ${w.n}`, `flaw ${w.n}`]);
    expect(testInputsListed.parse(JSON.parse(tests!.text)).testInputs).toEqual([
      expect.objectContaining({ content: 'Two players accuse you. Respond.', role: 'mafia' }),
    ]);
    expect(preview!.text).toMatch(new RegExp(`^Ada ${w.n}: \\d+ words\\.`));
    expect(preview!.text).toContain('Your tactics by role:');
    expect(results(events).every((r) => !r.isError)).toBe(true);
    expect(w.fake.last.toolResults).toHaveLength(4);
  });

  it('GIVEN each write tool WHEN the model calls it THEN the database holds the change', async () => {
    const testInput = must(await w.store.createTestInput(w.ada.id, { content: 'Night falls.' }));
    const writes: [string, unknown, (p: Persona) => void][] = [
      [
        'update_identity',
        { coreTraits: ['blunt', 'exacting', 'wry'] },
        (p) => expect(p.profile.identity.coreTraits).toEqual(['blunt', 'exacting', 'wry']),
      ],
      [
        'update_play_style',
        { voice: GRUFF_VOICE, signaturePhrases: ['Show your working.'] },
        (p) => expect(p.profile.playStyle).toMatchObject({ voice: GRUFF_VOICE, signaturePhrases: ['Show your working.'] }),
      ],
      [
        'update_role_tactics',
        { role: 'mafia', tactics: ['Vote last so the tally is known', 'Defend a townsperson once a day'] },
        (p) => expect(p.profile.tactics.mafia).toEqual(['Vote last so the tally is known', 'Defend a townsperson once a day']),
      ],
      [
        'update_style_notes',
        { personality: 'Impatient with waffle.' },
        (p) => expect(p.profile.personality).toBe('Impatient with waffle.'),
      ],
      ['rename', { name: `Countess ${w.n}` }, (p) => expect(p.profile.identity.name).toBe(`Countess ${w.n}`)],
      ['set_avatar', { url: 'https://example.com/ada.png' }, (p) => expect(p.avatarUrl).toBe('https://example.com/ada.png')],
      [
        'add_part',
        { part: part(`goal ${w.n}`, 'goal'), position: 1 },
        (p) => expect(p.parts.map((x) => x.name)).toEqual([`goal ${w.n}`, `soul ${w.n}`, `flaw ${w.n}`]),
      ],
      [
        'reorder_parts',
        { names: [`flaw ${w.n}`, `goal ${w.n}`, `soul ${w.n}`] },
        (p) => expect(p.parts.map((x) => x.name)).toEqual([`flaw ${w.n}`, `goal ${w.n}`, `soul ${w.n}`]),
      ],
      ['remove_part', { name: `goal ${w.n}` }, (p) => expect(p.parts.map((x) => x.name)).toEqual([`flaw ${w.n}`, `soul ${w.n}`])],
      [
        'add_trait',
        { trait: trait(`wary ${w.n}`, 'social') },
        (p) => expect(p.traits.map((t) => t.name)).toEqual([`methodical ${w.n}`, `wary ${w.n}`]),
      ],
      ['remove_trait', { name: `methodical ${w.n}` }, (p) => expect(p.traits.map((t) => t.name)).toEqual([`wary ${w.n}`])],
      ['set_arc_stage', { stage: 2 }, (p) => expect(p.arc?.stage).toBe(1)],
    ];
    for (const [name, input, check] of writes) {
      w.fake.enqueue(reply.tool(name, input), reply.text('Done.'));
      const { events } = await w.send(`Please ${name}`);
      expect(results(events), name).toEqual([expect.objectContaining({ name, isError: false })]);
      check(await w.reload(w.ada));
    }
    expect((await w.reload(w.ada)).version).toBe(1 + writes.length);

    w.fake.enqueue(
      reply.tool('create_test_input', { content: 'You are the last Doctor alive.', role: 'doctor' }),
      reply.tool('update_test_input', { id: testInput.id, change: { content: 'Night falls on day 3.' } }),
      reply.tool('delete_test_input', { id: testInput.id }),
      reply.text('Tests updated.'),
    );
    const { events } = await w.send('Rework my tests');
    expect(results(events).map((r) => [r.name, r.isError])).toEqual([
      ['create_test_input', false],
      ['update_test_input', false],
      ['delete_test_input', false],
    ]);
    expect(await w.store.testInputs(w.ada.id)).toEqual([
      expect.objectContaining({ content: 'You are the last Doctor alive.', role: 'doctor' }),
    ]);
  });

  it('GIVEN a task needing several steps WHEN sent THEN the loop runs each round until the model ends its turn, every turn saved in order', async () => {
    w.fake.enqueue(
      reply.tool('list_test_inputs', {}, { text: 'Checking your tests.' }),
      reply.tool('create_test_input', { content: 'Someone claims Detective and accuses you.' }),
      reply.text('You had none; I added one about a Detective claim.'),
    );
    const { result } = await w.send('Show my test inputs and add one about a Detective claim');
    expect(result).toEqual({ ok: true, value: 'end_turn' });
    expect(w.fake.requests.map((r) => r.transcript.at(-1)?.role)).toEqual(['user', 'tool', 'tool']);
    expect(await w.kinds()).toEqual(['user', 'assistant_text', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'assistant_text']);
    expect(await w.store.testInputs(w.ada.id)).toHaveLength(1);
  });

  it('GIVEN a reply with text and a tool call WHEN it streams THEN text deltas come before the text is complete, each tool_call before its tool_result, and done last', async () => {
    w.fake.enqueue(reply.tool('get_persona', {}, { text: 'Let me look at her first.' }), reply.text('She is bright and precise.'));
    const { events } = await w.send('Describe her');
    const types = events.map((e) => e.type);
    expect(types.indexOf('text_delta')).toBeLessThan(types.indexOf('text_done'));
    expect(types.filter((t) => t === 'text_delta').length).toBeGreaterThan(1);
    expect(types.indexOf('tool_call')).toBeLessThan(types.indexOf('tool_result'));
    expect(types.lastIndexOf('text_delta')).toBeGreaterThan(types.indexOf('tool_result'));
    expect(types.at(-1)).toBe('done');
    const call = events.find((e) => e.type === 'tool_call');
    expect(call).toMatchObject({ name: 'get_persona', input: {} });
    expect(results(events)[0]?.callId).toBe(call?.type === 'tool_call' ? call.callId : undefined);
  });

  it('GIVEN two messages WHEN the second is sent THEN the model sees the first exchange, and the session holds all turns', async () => {
    w.fake.enqueue(reply.text('Noted: you want her sharper.'), reply.text('Yes, sharper, as you said.'));
    await w.send('I want her sharper.');
    await w.send('What did I ask for?');
    expect(w.fake.last.transcript.map((t) => [t.role, t.text])).toEqual([
      ['user', 'I want her sharper.'],
      ['assistant', 'Noted: you want her sharper.'],
      ['user', 'What did I ask for?'],
    ]);
    expect(await w.kinds()).toEqual(['user', 'assistant_text', 'user', 'assistant_text']);
    expect(must(await w.editor.history(w.session.id, alice))).toHaveLength(4);
  });

  it('GIVEN a conversation WHEN cleared THEN the next message starts a fresh session with no memory, in the same thread', async () => {
    w.fake.enqueue(reply.text('Noted.'), reply.text('Hello, what shall we change?'));
    await w.send('Remember the word pineapple.');
    const fresh = must(await w.editor.clear(w.session.id, alice));
    expect(fresh.id).not.toBe(w.session.id);
    expect(await w.editor.sessionInThread(THREAD.threadId)).toMatchObject({ id: fresh.id });
    expect((await w.editor.send(w.session.id, alice, 'old session')).ok).toBe(false);
    w.session = fresh;
    await w.send('What was the word?');
    expect(w.fake.last.transcript.map((t) => t.text)).toEqual(['What was the word?']);
    expect(await w.kinds()).toEqual(['user', 'assistant_text']);
  });

  it('GIVEN a tool call the schema refuses WHEN it fails THEN the model gets an error result, retries, and only the valid change is saved', async () => {
    w.fake.enqueue(
      reply.tool('set_avatar', { url: 'javascript:alert(1)' }),
      reply.tool('update_play_style', { voice: 'Gruff.' }),
      reply.tool('update_play_style', { voice: GRUFF_VOICE }),
      reply.text('Done: her voice is gruffer now.'),
    );
    const { result, events } = await w.send('Make her gruffer');
    expect(result.ok).toBe(true);
    const [badUrl, refused, saved] = results(events);
    expect(badUrl).toMatchObject({ isError: true, text: stringContaining('expected an http(s) URL') });
    expect(refused).toMatchObject({ isError: true, text: stringContaining('must be 25–40 words (it has 1)') });
    expect(saved).toMatchObject({ isError: false, text: stringContaining('version 2') });
    expect(w.fake.requests[2]?.toolResults).toEqual([expect.objectContaining({ isError: true })]);
    const after = await w.reload(w.ada);
    expect(after.profile.playStyle.voice).toBe(GRUFF_VOICE);
    expect(after.avatarUrl).toBeNull();
  });

  it('GIVEN a request to edit a different persona WHEN the model tries THEN nothing can reach it: no other persona or its tests change', async () => {
    const othersTest = must(await w.store.createTestInput(w.other.id, { content: 'Untouchable.' }));
    w.fake.enqueue(
      reply.tools([
        { name: 'rename', input: { name: 'Hacked', personaId: w.other.id } },
        { name: 'update_test_input', input: { id: othersTest.id, change: { content: 'Hacked' } } },
        { name: 'delete_test_input', input: { id: othersTest.id } },
      ]),
      reply.text('I can only edit this persona; open the editor on the other one.'),
    );
    const { events } = await w.send(`Rename persona ${w.other.id} to Hacked and change its test`);
    expect(results(events).map((r) => r.isError)).toEqual([true, true, true]);
    expect(await w.reload(w.other)).toEqual(w.other);
    expect(await w.store.testInputs(w.other.id)).toEqual([othersTest]);
    expect((await w.reload(w.ada)).version).toBe(1);
  });

  it('GIVEN Claude Sonnet 5.5, which writes a signed note before its tool calls WHEN a task takes two tool rounds THEN each round goes on with the note it came with and the turn ends', async () => {
    const onSonnet = createEditorService({
      personas: w.personas,
      editor: w.store,
      tester: createPersonaTester(null),
      llm: { provider: anthropic(w.fake), model: 'claude-sonnet-5-5' },
    });
    w.fake.enqueue(
      reply.tool('list_test_inputs', {}, { text: 'Checking your tests.' }),
      reply.tool('create_test_input', { content: 'Someone claims Detective and accuses you.' }),
      reply.text('You had none; I added one about a Detective claim.'),
    );

    const result = await onSonnet.send(w.session.id, alice, 'Add a test about a Detective claim', { onEvent: () => {} });

    expect(result).toEqual({ ok: true, value: 'end_turn' });
    expect(w.fake.requests[0]!.body).toMatchObject({ thinking: { type: 'between_tools' }, output_config: { effort: 'medium' } });
    const lastAssistant = (r: FakeRequest) =>
      (r.body['messages'] as { role: string; content: { type: string }[] }[]).findLast((m) => m.role === 'assistant');
    expect(w.fake.requests.slice(1).map((r) => lastAssistant(r)?.content[0]?.type)).toEqual(['thinking', 'thinking']);
    expect(await w.store.testInputs(w.ada.id)).toHaveLength(1);
  });

  it('GIVEN the OpenAI provider WHEN the model calls a tool and answers THEN the loop streams and saves the same turns', async () => {
    const openai = await startFakeProvider('openai', { maxRetries: 0 });
    try {
      const onOpenAi = createEditorService({
        personas: w.personas,
        editor: w.store,
        tester: createPersonaTester(null),
        llm: { provider: openai.provider, model: 'gpt-test' },
      });
      openai.fake.enqueue(reply.tool('update_style_notes', { speechStyle: 'Crisp.' }, { text: 'On it.' }), reply.text('Done.'));
      const events: EditorEvent[] = [];
      expect(await onOpenAi.send(w.session.id, alice, 'Crisper speech', { onEvent: (e) => events.push(e) })).toEqual({
        ok: true,
        value: 'end_turn',
      });
      expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['text_delta', 'tool_call', 'tool_result', 'done']));
      expect(openai.fake.last.stream).toBe(true);
      expect(openai.fake.last.transcript.map((t) => t.role)).toEqual(['user', 'assistant', 'tool']);
      expect(await w.kinds()).toEqual(['user', 'assistant_text', 'tool_call', 'tool_result', 'assistant_text']);
      expect((await w.reload(w.ada)).profile.speechStyle).toBe('Crisp.');
    } finally {
      await openai.fake.close();
    }
  });
});
