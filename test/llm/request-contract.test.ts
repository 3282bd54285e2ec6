import { describe, expect, it } from 'vitest';
import { toMessageParams } from '../../src/llm/anthropic-request.ts';
import { toChatParams } from '../../src/llm/openai-request.ts';
import { LEGACY_CONTRACT, requestContract } from '../../src/llm/request-contract.ts';
import type { LlmRequest } from '../../src/llm/types.ts';

const SCHEMA = {
  type: 'object',
  properties: { target: { type: 'string' }, urgency: { type: 'integer', minimum: 0, maximum: 4 } },
  required: ['target', 'urgency'],
  additionalProperties: false,
};
const DECISION: LlmRequest = {
  model: 'claude-sonnet-5-5',
  system: { stable: 'You are Ada.' },
  messages: [{ role: 'user', content: 'Vote.' }],
  tools: [{ name: 'read_transcript', description: 'A day’s transcript', inputSchema: { type: 'object', properties: {} } }],
  output: { name: 'decision', schema: SCHEMA },
  maxTokens: 700,
  thinking: false,
  effort: 'low',
};
const OPENAI = { tokenLimitField: 'max_completion_tokens', promptCacheKey: true } as const;

function value<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('the request contract of a model', () => {
  it('GIVEN the current Claude models WHEN resolved THEN each is asked as Anthropic documents it', () => {
    expect(requestContract('anthropic', 'claude-sonnet-5-5')).toMatchObject({
      thinkingOff: 'between_tools',
      defaultEffort: 'high',
      outputFormat: true,
      noForcedTool: true,
      noSampling: true,
    });
    expect(requestContract('anthropic', 'claude-haiku-5-5')).toMatchObject({ thinkingOff: 'disabled', defaultEffort: 'medium' });
    expect(requestContract('anthropic', 'claude-opus-5-5')).toMatchObject({ defaultEffort: 'medium', outputFormat: true });
    expect(requestContract('anthropic', 'claude-opus-5-5').thinkingOff).toBeUndefined();
  });

  it('GIVEN the current GPT models WHEN resolved THEN function tools need effort none, and the models without none take no tools', () => {
    expect(requestContract('openai', 'gpt-6-luna')).toMatchObject({ toolsOnlyWithoutReasoning: true, defaultEffort: 'medium' });
    expect(requestContract('openai', 'gpt-6-luna').efforts).toContain('none');
    expect(requestContract('openai', 'gpt-6.1-terra').efforts).toContain('none');
    expect(requestContract('openai', 'gpt-6.1-sol').efforts).not.toContain('none');
    expect(requestContract('openai', 'gpt-5-mini')).toMatchObject({
      toolsOnlyWithoutReasoning: false,
      efforts: ['minimal', 'low', 'medium', 'high'],
    });
  });

  it('GIVEN a legacy model or one the table and the families do not know WHEN resolved THEN it keeps the request of old', () => {
    for (const [provider, model] of [
      ['anthropic', 'claude-sonnet-4-5'],
      ['anthropic', 'claude-haiku-4-5'],
      ['openai', 'gpt-4.1-mini'],
      ['openai', 'gpt-4o-mini'],
      ['openai', 'llama-3.1-8b-instruct'],
    ] as const) {
      expect(requestContract(provider, model)).toEqual(LEGACY_CONTRACT);
    }
  });
});

describe('the Anthropic request of a Claude 5.5 decision', () => {
  it('GIVEN Sonnet 5.5 WHEN a decision is built THEN its answer is an output_config.format with a schema the decoder takes, up-front thinking is off, effort low, no tool is forced and no output tool is offered', () => {
    const params = value(toMessageParams(DECISION));

    expect(params.thinking).toEqual({ type: 'between_tools' });
    expect(params.output_config?.effort).toBe('low');
    const schema = params.output_config?.format?.schema as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties['urgency']).not.toHaveProperty('minimum');
    expect(String(schema.properties['urgency']?.['description'])).toContain('minimum: 0');
    expect(params.tools?.map((tool) => ('name' in tool ? tool.name : ''))).toEqual(['read_transcript']);
    expect(params.tool_choice).toEqual({ type: 'auto' });
    expect(JSON.stringify(params.system)).not.toContain('by calling the');
    // Room for the short notes it writes between tool calls.
    expect(params.max_tokens).toBe(700 + 512);
  });

  it('GIVEN Sonnet 5.5 and the last round of a tool loop WHEN built THEN tools are refused with tool_choice none, never by forcing the answer', () => {
    expect(value(toMessageParams({ ...DECISION, toolChoice: 'none' })).tool_choice).toEqual({ type: 'none' });
  });

  it('GIVEN Haiku 5.5 WHEN a decision with tools and a JSON format is built THEN thinking stays adaptive (its guide: off, it skips needed tool calls), and a recap turns it off', () => {
    const decision = value(toMessageParams({ ...DECISION, model: 'claude-haiku-5-5' }));
    expect(decision.thinking).toBeUndefined();
    expect(decision.max_tokens).toBe(700 + 1024);
    const recap = value(toMessageParams({ ...DECISION, model: 'claude-haiku-5-5', tools: [], output: undefined }));
    expect(recap.thinking).toEqual({ type: 'disabled' });
    expect(recap.max_tokens).toBe(700);
  });

  it('GIVEN a legacy model WHEN the same decision is built THEN it is the request of old: a forced-when-alone output tool, no thinking, no effort', () => {
    const params = value(toMessageParams({ ...DECISION, model: 'claude-sonnet-4-5', tools: [] }));
    expect(params).not.toHaveProperty('thinking');
    expect(params).not.toHaveProperty('output_config');
    expect(params.tool_choice).toEqual({ type: 'tool', name: 'decision' });
    expect(params.max_tokens).toBe(700);
  });

  it('GIVEN an assistant turn with its thinking blocks WHEN sent back to the same model THEN it goes as it came; to another model it is rebuilt', () => {
    const content = [
      { type: 'thinking', thinking: '', signature: 'sig' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_transcript', input: {} },
    ];
    const messages: LlmRequest['messages'] = [
      { role: 'user', content: 'Vote.' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'toolu_1', name: 'read_transcript', input: {} }],
        verbatim: { provider: 'anthropic', model: 'claude-sonnet-5-5', content },
      },
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'read_transcript', content: 'Nothing was said.', isError: false },
    ];
    expect(value(toMessageParams({ ...DECISION, messages })).messages[1]?.content).toEqual(content);
    expect(value(toMessageParams({ ...DECISION, model: 'claude-opus-5-5', messages })).messages[1]?.content).toEqual([content[1]]);
  });
});

describe('the Chat Completions request of a GPT model', () => {
  it('GIVEN GPT-6 Luna WHEN a decision with tools is built THEN reasoning_effort is none, so the tools are taken, and no reasoning room is added', () => {
    const params = value(toChatParams({ ...DECISION, model: 'gpt-6-luna' }, OPENAI));
    expect(params.reasoning_effort).toBe('none');
    expect(params.tools).toHaveLength(1);
    expect(params.max_completion_tokens).toBe(700);
  });

  it('GIVEN GPT-6 Luna WHEN a call without tools asks for effort, or for no thinking THEN it sends that effort with room for it, or none', () => {
    const recap: LlmRequest = { ...DECISION, model: 'gpt-6-luna', tools: [], thinking: undefined, effort: 'low', temperature: 0.3 };
    const low = value(toChatParams(recap, OPENAI));
    expect(low).toMatchObject({ reasoning_effort: 'low', max_completion_tokens: 700 + 1024 });
    // Sampling only at effort none.
    expect(low).not.toHaveProperty('temperature');
    expect(value(toChatParams({ ...recap, thinking: false }, OPENAI))).toMatchObject({ reasoning_effort: 'none', temperature: 0.3 });
  });

  it('GIVEN GPT-6.1 Sol, which has no effort none WHEN a decision with tools is built THEN the tools are left out rather than refused', () => {
    const params = value(toChatParams({ ...DECISION, model: 'gpt-6.1-sol' }, OPENAI));
    expect(params).not.toHaveProperty('tools');
    expect(params).not.toHaveProperty('tool_choice');
    expect(params.reasoning_effort).toBe('low');
  });

  it('GIVEN a self-hosted model on a compatible server WHEN any request is built THEN it is byte for byte the request of old', () => {
    const options = { tokenLimitField: 'max_tokens', promptCacheKey: false } as const;
    const request = { ...DECISION, model: 'llama-3.1-8b-instruct', temperature: 0.7 };
    const params = value(toChatParams(request, options));
    expect(JSON.stringify(params)).toBe(JSON.stringify(value(toChatParams(request, options, LEGACY_CONTRACT))));
    expect(Object.keys(params).sort()).toEqual([
      'max_tokens',
      'messages',
      'model',
      'response_format',
      'temperature',
      'tool_choice',
      'tools',
    ]);
  });

  it('GIVEN reasoning_effort turned off for a server WHEN a GPT-6 request is built THEN no effort is sent', () => {
    expect(value(toChatParams({ ...DECISION, model: 'gpt-6-luna' }, { ...OPENAI, reasoningEffort: false }))).not.toHaveProperty(
      'reasoning_effort',
    );
  });
});
