import { beforeAll, expect, it } from 'vitest';
import { createEditorStore, type EditorStore } from '../../src/db/editor-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { createPersonaStore, type PersonaStore } from '../../src/db/persona-store.ts';
import type { Actor } from '../../src/persona/permissions.ts';
import { content } from '../persona/fixtures.ts';
import { describeOn, testBackends } from './test-databases.ts';
import { stringContaining } from '../support/matchers.ts';
import type { Result } from '../../src/result.ts';

const alice: Actor = { userId: '111', guildId: '900', canManageServer: false };
const THREAD = { guildId: '900', channelId: '500', threadId: '700' };

function must<T>(r: Result<T, { message: string }>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

for (const backend of testBackends('editor_store_test')) {
  describeOn(backend, `EditorStore on ${backend.name}`, () => {
    let db: Database;
    let personas: PersonaStore;
    let store: EditorStore;
    const persona = async (name: string): Promise<string> =>
      must(await personas.create(alice, { scope: { kind: 'private' }, content: content({}, name) })).id;
    beforeAll(async () => {
      db = await backend.open();
      personas = createPersonaStore(db.prisma);
      store = createEditorStore(db.prisma);
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });

    it('GIVEN an owner opening a persona twice WHEN turns are appended THEN it is one session, numbered in order, read back as written', async () => {
      const personaId = await persona('Session Sam');
      const { session } = await store.open(personaId, alice.userId, THREAD);
      expect(await store.open(personaId, alice.userId, { ...THREAD, threadId: '701' })).toMatchObject({
        session: { id: session.id, threadId: '701' },
        movedFrom: '700',
        displaced: null,
      });
      expect(await store.sessionInThread('701')).toMatchObject({ id: session.id, personaId, ownerId: '111', active: true });

      await store.append(session.id, [{ kind: 'user', text: 'Make him gruffer.' }]);
      await store.append(session.id, [
        { kind: 'assistant_text', text: 'Reading first.', responseId: 'msg_1' },
        { kind: 'tool_call', callId: 'toolu_1', toolName: 'get_persona', input: {}, responseId: 'msg_1' },
        { kind: 'tool_call', callId: 'toolu_2', toolName: 'bogus', input: null, responseId: 'msg_1' },
      ]);
      await store.append(session.id, [{ kind: 'tool_result', callId: 'toolu_1', toolName: 'get_persona', text: 'ok', isError: false }]);
      await store.append(session.id, [{ kind: 'tool_result', callId: 'toolu_2', toolName: 'bogus', text: 'no such tool', isError: true }]);

      const turns = await store.turns(session.id);
      expect(turns.map((t) => [t.seq, t.kind])).toEqual([
        [1, 'user'],
        [2, 'assistant_text'],
        [3, 'tool_call'],
        [4, 'tool_call'],
        [5, 'tool_result'],
        [6, 'tool_result'],
      ]);
      expect(turns[2]).toMatchObject({ callId: 'toolu_1', toolName: 'get_persona', input: {}, responseId: 'msg_1' });
      expect(turns[5]).toMatchObject({ callId: 'toolu_2', isError: true, text: 'no such tool' });

      await store.append(session.id, [
        { kind: 'failed', reason: 'network', text: 'The connection to the model was lost mid-answer.' },
        { kind: 'unsent', text: 'And the tactics.' },
      ]);
      expect((await store.turns(session.id)).slice(6)).toMatchObject([
        { seq: 7, kind: 'failed', reason: 'network', text: 'The connection to the model was lost mid-answer.' },
        { seq: 8, kind: 'unsent', text: 'And the tactics.' },
      ]);
    });

    it('GIVEN a session with turns WHEN cleared THEN a fresh empty session takes its place and the old turns are kept', async () => {
      const personaId = await persona('Clear Cleo');
      const { session: old } = await store.open(personaId, alice.userId, THREAD);
      await store.append(old.id, [{ kind: 'user', text: 'hello' }]);
      await store.summarize(old.id, 'The user said hello.', 1);
      const fresh = must(await store.clear(old.id));
      expect(fresh).toMatchObject({ personaId, ownerId: '111', threadId: '700', active: true, summary: '', summarizedThrough: 0 });
      expect(fresh.id).not.toBe(old.id);
      expect(await store.turns(fresh.id)).toEqual([]);
      expect(must(await store.session(old.id))).toMatchObject({
        active: false,
        threadId: null,
        summary: 'The user said hello.',
        summarizedThrough: 1,
      });
      expect(await store.turns(old.id)).toHaveLength(1);
      expect((await store.open(personaId, alice.userId, THREAD)).session.id).toBe(fresh.id);
      expect(await store.clear('no-such-session')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });

    it('GIVEN Otto, then Vera, open in threads WHEN both are opened in one DM, Vera first THEN the DM holds Otto, Vera is held nowhere, and both threads are free', async () => {
      const otto = await persona('Place Otto');
      const vera = await persona('Place Vera');
      const dm = { guildId: null, channelId: '800', threadId: '800' };
      await store.open(otto, alice.userId, { ...THREAD, threadId: '710' });
      await store.open(vera, alice.userId, { ...THREAD, threadId: '711' });
      const veraHere = await store.open(vera, alice.userId, dm);
      expect(veraHere).toMatchObject({ movedFrom: '711', displaced: null });
      const ottoHere = await store.open(otto, alice.userId, dm);
      expect(ottoHere).toMatchObject({
        movedFrom: '710',
        displaced: { id: veraHere.session.id, personaId: vera, threadId: null, active: true },
      });
      expect(await store.sessionInThread('800')).toMatchObject({ id: ottoHere.session.id, personaId: otto });
      expect(await store.sessionInThread('710')).toBeNull();
      expect(await store.sessionInThread('711')).toBeNull();
      // Vera's conversation is kept: opening her again takes the DM back, with the same session.
      expect(await store.open(vera, alice.userId, dm)).toMatchObject({
        session: { id: veraHere.session.id },
        movedFrom: null,
        displaced: { id: ottoHere.session.id },
      });
    });

    it('GIVEN replies being written WHEN one goes on in a further message and one finishes THEN only the open one is listed, with its last message', async () => {
      const { session } = await store.open(await persona('Reply Rita'), alice.userId, { ...THREAD, threadId: '720' });
      const before = (await store.openReplies()).length;
      const long = await store.openReply(session.id, '720', 'm1');
      await store.moveReply(long, 'm2');
      const short = await store.openReply(session.id, '720', 'm3');
      await store.closeReply(short);
      expect((await store.openReplies()).slice(before)).toEqual([{ id: long, sessionId: session.id, channelId: '720', messageId: 'm2' }]);
      await store.closeReply(long);
      expect(await store.openReplies()).toHaveLength(before);
    });

    it('GIVEN two personas with test inputs WHEN one persona edits or deletes the other’s input by id THEN it is not found and nothing changes', async () => {
      const mine = await persona('Tester Tia');
      const theirs = await persona('Other Otto');
      const input = must(await store.createTestInput(mine, { content: 'You are accused by two players. Respond.', role: 'mafia' }));
      const other = must(await store.createTestInput(theirs, { content: 'Night falls.' }));
      expect(other.role).toBe('town');

      expect(must(await store.updateTestInput(mine, input.id, { content: 'You are accused by three players.' }))).toEqual({
        id: input.id,
        content: 'You are accused by three players.',
        role: 'mafia',
      });
      expect(await store.updateTestInput(mine, other.id, { content: 'hijacked' })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
      expect(await store.deleteTestInput(mine, other.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await store.testInputs(theirs)).toEqual([other]);

      expect(await store.createTestInput(mine, { content: '  ' })).toMatchObject({
        ok: false,
        error: { code: 'invalid', message: stringContaining('content: must not be empty') },
      });
      expect(await store.updateTestInput(mine, input.id, { role: 'jester' })).toMatchObject({
        ok: false,
        error: { code: 'invalid', message: stringContaining('role') },
      });
      must(await store.deleteTestInput(mine, input.id));
      expect(await store.testInputs(mine)).toEqual([]);
    });
  });
}
