import { describe, expect, it } from 'vitest';
import { NOT_RUN, summarize, toLlmMessages, trimHistory } from '../../../src/agents/editor/history.ts';
import type { EditorTurn, NewEditorTurn } from '../../../src/db/editor-turns.ts';
import { EDITOR_TOOLS } from '../../../src/agents/editor/tools/index.ts';
import { toMessageParams } from '../../../src/llm/anthropic-request.ts';
import { toChatParams } from '../../../src/llm/openai-request.ts';
import { toolSpec } from '../../../src/llm/tool.ts';
import type { LlmMessage } from '../../../src/llm/types.ts';

const AT = new Date('2026-11-22T06:00:00Z');
const numbered = (turns: readonly NewEditorTurn[]): EditorTurn[] => turns.map((t, i) => ({ ...t, seq: i + 1, at: AT }));

/** user → text + two calls in one response → both results → final text. */
const EXCHANGE: NewEditorTurn[] = [
  { kind: 'user', text: 'Make the voice gruffer and show me the tests.' },
  { kind: 'assistant_text', text: 'Reading first.', responseId: 'r1' },
  { kind: 'tool_call', callId: 'c1', toolName: 'get_persona', input: {}, responseId: 'r1' },
  { kind: 'tool_call', callId: 'c2', toolName: 'list_test_inputs', input: {}, responseId: 'r1' },
  { kind: 'tool_result', callId: 'c1', toolName: 'get_persona', text: '{"name":"Ada"}', isError: false },
  { kind: 'tool_result', callId: 'c2', toolName: 'list_test_inputs', text: 'no such thing', isError: true },
  { kind: 'assistant_text', text: 'Done.', responseId: 'r2' },
];

const request = (messages: readonly LlmMessage[]) => ({
  model: 'm',
  system: { stable: 'editor' },
  messages,
  tools: EDITOR_TOOLS.map(toolSpec),
});

describe('editor history', () => {
  it('GIVEN one response with text and two tool calls WHEN converted for Anthropic THEN one assistant message holds both tool_use blocks and one user message both tool_result blocks', () => {
    const params = toMessageParams(request(toLlmMessages(numbered(EXCHANGE))));
    expect(params.ok && params.value.messages).toEqual([
      { role: 'user', content: 'Make the voice gruffer and show me the tests.' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading first.' },
          { type: 'tool_use', id: 'c1', name: 'get_persona', input: {} },
          { type: 'tool_use', id: 'c2', name: 'list_test_inputs', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '{"name":"Ada"}', is_error: false },
          { type: 'tool_result', tool_use_id: 'c2', content: 'no such thing', is_error: true },
        ],
      },
      // A continued conversation's last block is a cache breakpoint: the next turn reads all before it.
      { role: 'assistant', content: [{ type: 'text', text: 'Done.', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('GIVEN the same turns WHEN converted for OpenAI THEN one assistant message carries both tool_calls and each result is its own tool message', () => {
    const params = toChatParams(request(toLlmMessages(numbered(EXCHANGE))), { tokenLimitField: 'max_tokens', promptCacheKey: false });
    expect(params.ok && params.value.messages).toEqual([
      { role: 'system', content: 'editor' },
      { role: 'user', content: 'Make the voice gruffer and show me the tests.' },
      {
        role: 'assistant',
        content: 'Reading first.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_persona', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'list_test_inputs', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"name":"Ada"}' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: no such thing' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('GIVEN a run stopped after the first of two calls WHEN converted THEN the unrun call gets an error result, so the provider accepts the history', () => {
    const stopped = numbered([...EXCHANGE.slice(0, 5), { kind: 'user', text: 'Carry on.' }]);
    expect(toLlmMessages(stopped).slice(2)).toEqual([
      { role: 'tool', toolCallId: 'c1', toolName: 'get_persona', content: '{"name":"Ada"}', isError: false },
      { role: 'tool', toolCallId: 'c2', toolName: 'list_test_inputs', content: NOT_RUN, isError: true },
      { role: 'user', content: 'Carry on.' },
    ]);
  });

  it('GIVEN a failed run and a message stopped while it waited WHEN converted THEN neither the failure nor the stopped message reaches the model', () => {
    const turns = numbered([
      { kind: 'user', text: 'Make her bolder.' },
      { kind: 'failed', reason: 'overloaded', text: 'The model is overloaded right now.' },
      { kind: 'unsent', text: 'And the tactics too.' },
      { kind: 'user', text: 'Try again.' },
    ]);
    expect(toLlmMessages(turns)).toEqual([
      { role: 'user', content: 'Make her bolder.' },
      { role: 'user', content: 'Try again.' },
    ]);
  });

  it('GIVEN a long history WHEN trimmed to fewer turns than the last exchange THEN the cut moves back to its user turn and the rest is summarised', () => {
    const turns = numbered([...EXCHANGE, ...EXCHANGE, ...EXCHANGE]);
    const trimmed = trimHistory(turns, 4);
    expect(trimmed.kept[0]).toMatchObject({ kind: 'user', seq: 15 });
    expect(trimmed.kept).toHaveLength(7);
    expect(trimmed.through).toBe(14);
    expect(trimmed.summary).toContain('The user asked: “Make the voice gruffer and show me the tests.”');
    expect(trimmed.summary).toContain('tools: get_persona ✓, list_test_inputs ✗');
    for (const keep of [1, 3, 5, 8, 10, 13, 20]) {
      const { kept } = trimHistory(turns, keep);
      const calls = new Set(kept.flatMap((t) => (t.kind === 'tool_call' ? [`${t.callId}${t.seq}`] : [])));
      expect(kept[0]?.kind).toBe('user');
      expect(
        kept.filter((t) => t.kind === 'tool_result').every((r) => kept.some((c) => c.kind === 'tool_call' && c.callId === r.callId)),
      ).toBe(true);
      expect(calls.size).toBe(kept.filter((t) => t.kind === 'tool_call').length);
    }
  });

  it('GIVEN a short history WHEN trimmed THEN everything is kept and there is no summary', () => {
    expect(trimHistory(numbered(EXCHANGE), 60)).toEqual({ kept: numbered(EXCHANGE), through: 0, summary: '' });
    expect(summarize([])).toBe('');
  });

  it('GIVEN every editor tool WHEN offered to either provider THEN each input schema is a JSON object schema and none asks for a persona id', () => {
    const specs = EDITOR_TOOLS.map(toolSpec);
    expect(toMessageParams(request([])).ok).toBe(true);
    expect(toChatParams(request([]), { tokenLimitField: 'max_tokens', promptCacheKey: false }).ok).toBe(true);
    for (const spec of specs) {
      expect(spec.inputSchema['type']).toBe('object');
      expect(JSON.stringify(spec.inputSchema)).not.toMatch(/persona_?id/i);
    }
    expect(new Set(specs.map((s) => s.name)).size).toBe(specs.length);
  });
});
