import { describeIssues } from '../persona/errors.ts';
import { err, ok, type Result } from '../result.ts';
import { createEditorReplies, type EditorReplies } from './editor-replies.ts';
import {
  FAILURE_REASONS,
  TEST_INPUT_LIMITS,
  testInputPatchSchema,
  testInputSchema,
  testRoleSchema,
  type EditorPlace,
  type EditorSession,
  type EditorTurn,
  type FailureReason,
  type NewEditorTurn,
  type TestInput,
} from './editor-turns.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';

interface EditorStoreError {
  readonly code: 'not_found' | 'invalid' | 'too_many';
  readonly message: string;
}

/** A session opened in a place, and what that moved. */
export interface OpenedSession {
  readonly session: EditorSession;
  /** The thread or DM the session was held in until now, when that was another one. */
  readonly movedFrom: string | null;
  /** The session that was held in this place until now (still active, held nowhere). */
  readonly displaced: EditorSession | null;
}

/**
 * Editor sessions, their turns, their replies being written, and personas' test inputs. A thread
 * or DM holds one session at most. Test inputs are always addressed through their persona: an id
 * belonging to another persona is `not_found`, never changed.
 */
export interface EditorStore extends EditorReplies {
  /**
   * The owner's active session about the persona (created if none), moved to `place`; a session
   * held there before lets go of it: the last one opened is the one the place talks to.
   */
  open(personaId: string, ownerId: string, place: EditorPlace): Promise<OpenedSession>;
  session(id: string): Promise<Result<EditorSession, EditorStoreError>>;
  /** The session held in a Discord thread (or DM channel id). */
  sessionInThread(threadId: string): Promise<EditorSession | null>;
  /** Retires the session (its turns are kept) and returns a fresh one in the same place. */
  clear(id: string): Promise<Result<EditorSession, EditorStoreError>>;
  /** Appends in order, numbering from the session's last seq. */
  append(sessionId: string, turns: readonly NewEditorTurn[]): Promise<EditorTurn[]>;
  turns(sessionId: string): Promise<EditorTurn[]>;
  summarize(sessionId: string, summary: string, through: number): Promise<void>;

  testInputs(personaId: string): Promise<TestInput[]>;
  createTestInput(personaId: string, input: unknown): Promise<Result<TestInput, EditorStoreError>>;
  updateTestInput(personaId: string, id: string, patch: unknown): Promise<Result<TestInput, EditorStoreError>>;
  deleteTestInput(personaId: string, id: string): Promise<Result<void, EditorStoreError>>;
}

type SessionRow = Prisma.EditorSessionGetPayload<object>;
type TurnRow = Prisma.EditorTurnGetPayload<object>;

const noSuchTestInput = (id: string): EditorStoreError => ({
  code: 'not_found',
  message: `This persona has no test input with id "${id}".`,
});

export function createEditorStore(prisma: PrismaClient): EditorStore {
  async function lastSeq(tx: Prisma.TransactionClient, sessionId: string): Promise<number> {
    const last = await tx.editorTurn.findFirst({ where: { sessionId }, orderBy: { seq: 'desc' }, select: { seq: true } });
    return last?.seq ?? 0;
  }

  async function openOnce(personaId: string, ownerId: string, place: EditorPlace): Promise<OpenedSession> {
    return prisma.$transaction(async (tx) => {
      const found = await tx.editorSession.findFirst({ where: { personaId, ownerId, active: true }, orderBy: { createdAt: 'desc' } });
      const here = place.threadId === null ? null : await tx.editorSession.findUnique({ where: { threadId: place.threadId } });
      const displaced = here !== null && here.id !== found?.id ? here : null;
      // Let go first: the place is unique.
      if (displaced !== null) await tx.editorSession.update({ where: { id: displaced.id }, data: { threadId: null } });
      const row =
        found === null
          ? await tx.editorSession.create({ data: { personaId, ownerId, ...place } })
          : await tx.editorSession.update({ where: { id: found.id }, data: { ...place } });
      const movedFrom = found?.threadId != null && found.threadId !== place.threadId ? found.threadId : null;
      return {
        session: sessionOfRow(row),
        movedFrom,
        displaced: displaced === null ? null : sessionOfRow({ ...displaced, threadId: null }),
      };
    });
  }

  return {
    ...createEditorReplies(prisma),

    async open(personaId, ownerId, place) {
      try {
        return await openOnce(personaId, ownerId, place);
      } catch (error) {
        // Two opens in one place at once: the loser sees the winner's binding on its second try.
        if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') throw error;
        return openOnce(personaId, ownerId, place);
      }
    },

    async session(id) {
      const row = await prisma.editorSession.findUnique({ where: { id } });
      return row === null ? err({ code: 'not_found', message: 'No such editor session.' }) : ok(sessionOfRow(row));
    },

    async sessionInThread(threadId) {
      const row = await prisma.editorSession.findUnique({ where: { threadId } });
      return row === null || !row.active ? null : sessionOfRow(row);
    },

    async clear(id) {
      const fresh = await prisma.$transaction(async (tx) => {
        const row = await tx.editorSession.findUnique({ where: { id } });
        if (row === null) return null;
        // The retired sessions let go of their place before the fresh one takes it.
        await tx.editorSession.updateMany({
          where: { personaId: row.personaId, ownerId: row.ownerId, active: true },
          data: { active: false, clearedAt: new Date(), threadId: null },
        });
        return tx.editorSession.create({
          data: { personaId: row.personaId, ownerId: row.ownerId, guildId: row.guildId, channelId: row.channelId, threadId: row.threadId },
        });
      });
      return fresh === null ? err({ code: 'not_found', message: 'No such editor session.' }) : ok(sessionOfRow(fresh));
    },

    async append(sessionId, turns) {
      if (turns.length === 0) return [];
      const rows = await prisma.$transaction(async (tx) => {
        const from = await lastSeq(tx, sessionId);
        const out: TurnRow[] = [];
        for (const [i, turn] of turns.entries())
          out.push(await tx.editorTurn.create({ data: { sessionId, seq: from + i + 1, ...columnsOf(turn) } }));
        await tx.editorSession.update({ where: { id: sessionId }, data: { updatedAt: new Date() } });
        return out;
      });
      return rows.map(turnOfRow);
    },

    async turns(sessionId) {
      const rows = await prisma.editorTurn.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
      return rows.map(turnOfRow);
    },

    async summarize(sessionId, summary, through) {
      await prisma.editorSession.update({ where: { id: sessionId }, data: { summary, summarizedThrough: through } });
    },

    async testInputs(personaId) {
      const rows = await prisma.personaTestInput.findMany({ where: { personaId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      return rows.map(testInputOfRow);
    },

    async createTestInput(personaId, input) {
      const parsed = testInputSchema.safeParse(input);
      if (!parsed.success) return err({ code: 'invalid', message: `The test input is invalid: ${describeIssues(parsed.error)}.` });
      const count = await prisma.personaTestInput.count({ where: { personaId } });
      if (count >= TEST_INPUT_LIMITS.perPersona) {
        return err({ code: 'too_many', message: `A persona keeps at most ${TEST_INPUT_LIMITS.perPersona} test inputs; delete one first.` });
      }
      return ok(testInputOfRow(await prisma.personaTestInput.create({ data: { personaId, ...parsed.data } })));
    },

    async updateTestInput(personaId, id, patch) {
      const parsed = testInputPatchSchema.safeParse(patch);
      if (!parsed.success) return err({ code: 'invalid', message: `The change is invalid: ${describeIssues(parsed.error)}.` });
      const changed = await prisma.personaTestInput.updateMany({ where: { id, personaId }, data: parsed.data });
      if (changed.count === 0) return err(noSuchTestInput(id));
      const row = await prisma.personaTestInput.findUniqueOrThrow({ where: { id } });
      return ok(testInputOfRow(row));
    },

    async deleteTestInput(personaId, id) {
      const removed = await prisma.personaTestInput.deleteMany({ where: { id, personaId } });
      return removed.count === 0 ? err(noSuchTestInput(id)) : ok(undefined);
    },
  };
}

function sessionOfRow(row: SessionRow): EditorSession {
  return {
    id: row.id,
    personaId: row.personaId,
    ownerId: row.ownerId,
    guildId: row.guildId,
    channelId: row.channelId,
    threadId: row.threadId,
    active: row.active,
    summary: row.summary,
    summarizedThrough: row.summarizedThrough,
    createdAt: row.createdAt,
  };
}

function columnsOf(turn: NewEditorTurn) {
  switch (turn.kind) {
    case 'user':
      return { kind: turn.kind, text: turn.text };
    case 'assistant_text':
      return { kind: turn.kind, text: turn.text, responseId: turn.responseId };
    case 'tool_call':
      return {
        kind: turn.kind,
        toolName: turn.toolName,
        callId: turn.callId,
        responseId: turn.responseId,
        // Whatever the model sent is kept as sent, even input the tool refused.
        input: turn.input === undefined || turn.input === null ? Prisma.JsonNull : (turn.input as Prisma.InputJsonValue),
      };
    case 'tool_result':
      return { kind: turn.kind, toolName: turn.toolName, callId: turn.callId, text: turn.text, isError: turn.isError };
    case 'unsent':
      return { kind: turn.kind, text: turn.text };
    case 'failed':
      return { kind: turn.kind, text: turn.text, reason: turn.reason };
  }
}

// Rows are written only through columnsOf; a row that does not fit is a bug, so it throws.
function turnOfRow(row: TurnRow): EditorTurn {
  const base = { seq: row.seq, at: row.createdAt };
  const need = (value: string | null, what: string): string => {
    if (value === null) throw new Error(`editor turn ${row.id} (${row.kind}) has no ${what}`);
    return value;
  };
  switch (row.kind) {
    case 'user':
      return { ...base, kind: 'user', text: row.text };
    case 'assistant_text':
      return { ...base, kind: 'assistant_text', text: row.text, responseId: need(row.responseId, 'responseId') };
    case 'tool_call':
      return {
        ...base,
        kind: 'tool_call',
        callId: need(row.callId, 'callId'),
        toolName: need(row.toolName, 'toolName'),
        input: row.input,
        responseId: need(row.responseId, 'responseId'),
      };
    case 'tool_result':
      return {
        ...base,
        kind: 'tool_result',
        callId: need(row.callId, 'callId'),
        toolName: need(row.toolName, 'toolName'),
        text: row.text,
        isError: row.isError,
      };
    case 'unsent':
      return { ...base, kind: 'unsent', text: row.text };
    case 'failed':
      return { ...base, kind: 'failed', text: row.text, reason: reasonOf(need(row.reason, 'reason')) };
    default:
      throw new Error(`editor turn ${row.id} has the unknown kind ${row.kind}`);
  }
}

function reasonOf(reason: string): FailureReason {
  const known = FAILURE_REASONS.find((r) => r === reason);
  if (known === undefined) throw new Error(`editor turn with the unknown failure reason ${reason}`);
  return known;
}

function testInputOfRow(row: { id: string; content: string; role: string }): TestInput {
  return { id: row.id, content: row.content, role: testRoleSchema.parse(row.role) };
}
