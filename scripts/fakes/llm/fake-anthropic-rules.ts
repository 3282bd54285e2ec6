import { validSignature } from './fake-thinking.ts';
import { isRecord } from './fake-wire.ts';

/**
 * What the Messages API refuses per model, as Anthropic documents it, so a test fails when the code
 * sends a model what it would refuse. Kept apart from the code's own `request-contract.ts`: the
 * server's word, not the client's. Models it does not name (test ids) are refused nothing new.
 *
 * Claude 5.x thinks by default (adaptive). Sonnet 5.5 refuses thinking budgets, sampling parameters,
 * assistant prefill, forced tool choice and `thinking: {type: 'disabled'}`, and turns up-front
 * thinking off with `between_tools` at low–high effort (platform.claude.com/docs/en/models/sonnet-5-5/
 * migration-guide, …/whats-new-sonnet-5-5). Opus 5.5 always thinks; Haiku 5.5 takes `disabled` at
 * low–high (…/prompting-claude-haiku-5-5). A forced tool is refused while a model thinks, and by
 * Sonnet and Opus 5.5 at all (github.com/can1357/oh-my-pi/issues/12939). Structured output schemas
 * refuse numeric and length bounds and need closed objects (github.com/agentjido/req_llm/issues/302).
 */
interface ServerModel {
  /** The `thinking` types it takes besides `adaptive`. */
  readonly offSwitches: readonly string[];
  readonly defaultEffort: string;
  /** Refuses tool_choice any/tool even with thinking off. */
  readonly noForcedTool: boolean;
}

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];
const BELOW_XHIGH = ['low', 'medium', 'high'];

/** The Claude 5.x models the fake knows, by id; older and unknown models think only when asked. */
export function claude5(model: string): ServerModel | undefined {
  if (/^claude-sonnet-5-5(-|$)/.test(model)) return { offSwitches: ['between_tools'], defaultEffort: 'high', noForcedTool: true };
  if (/^claude-opus-5-5(-|$)/.test(model)) return { offSwitches: [], defaultEffort: 'medium', noForcedTool: true };
  if (/^claude-haiku-5-5(-|$)/.test(model)) return { offSwitches: ['disabled'], defaultEffort: 'medium', noForcedTool: false };
  if (/^claude-[a-z]+-5(-|$)/.test(model)) return { offSwitches: ['disabled'], defaultEffort: 'high', noForcedTool: false };
  return undefined;
}

/** How the model thinks on this request: before it answers, only between tool calls, or not at all. */
export function thinkingMode(body: Record<string, unknown>): 'adaptive' | 'between_tools' | 'off' {
  const type = isRecord(body['thinking']) ? body['thinking']['type'] : undefined;
  if (claude5(String(body['model'])) === undefined) return type === 'enabled' || type === 'adaptive' ? 'adaptive' : 'off';
  if (type === 'between_tools') return 'between_tools';
  return type === 'disabled' ? 'off' : 'adaptive';
}

/** The effort the request runs at: the one it names, else the model's own (`high` for models the fake does not know). */
export function effortOf(body: Record<string, unknown>): string {
  const config = body['output_config'];
  const named = isRecord(config) && typeof config['effort'] === 'string' ? config['effort'] : undefined;
  return named ?? claude5(String(body['model']))?.defaultEffort ?? 'high';
}

/** Why the real API would refuse this request for its model (400 `invalid_request_error`), or undefined. */
export function anthropicRefusal(body: Record<string, unknown>): string | undefined {
  const model = claude5(String(body['model']));
  return (
    (model ? modelProblem(body, model) : legacyProblem(body)) ??
    forcedToolProblem(body) ??
    formatProblem(body) ??
    thinkingBlocksProblem(body)
  );
}

/** Sonnet and Haiku 4.5 take no effort (platform.claude.com/docs/en/build-with-claude/effort lists the models that do). */
function legacyProblem(body: Record<string, unknown>): string | undefined {
  const config = body['output_config'];
  const withEffort = isRecord(config) && config['effort'] !== undefined && config['effort'] !== null;
  return withEffort && /^claude-(sonnet|haiku)-4-5(-|$)/.test(String(body['model']))
    ? 'output_config.effort: This model does not support the effort parameter.'
    : undefined;
}

function modelProblem(body: Record<string, unknown>, model: ServerModel): string | undefined {
  for (const field of ['temperature', 'top_p', 'top_k']) if (body[field] !== undefined) return `\`${field}\` is deprecated for this model.`;
  const thinking = isRecord(body['thinking']) ? body['thinking'] : {};
  const type = typeof thinking['type'] === 'string' ? thinking['type'] : undefined;
  const effort = effortOf(body);
  if (!EFFORTS.includes(effort)) return `output_config.effort: Input should be ${EFFORTS.map((e) => `'${e}'`).join(', ')}`;
  if (type === 'enabled' || thinking['budget_tokens'] !== undefined) {
    return '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
  }
  if (type !== undefined && type !== 'adaptive') {
    if (!model.offSwitches.includes(type)) {
      const instead = model.offSwitches[0];
      return `"thinking.type.${type}" is not supported for this model.${instead ? ` Use "thinking.type.${instead}" to turn off up-front thinking.` : ''}`;
    }
    if (!BELOW_XHIGH.includes(effort)) return `"thinking.type.${type}" is supported only at effort low, medium or high.`;
  }
  const messages = list(body['messages']).filter(isRecord);
  if (messages.at(-1)?.['role'] === 'assistant') {
    return 'This model does not support assistant message prefill. The conversation must end with a user message.';
  }
  if (model.noForcedTool && forced(body)) return 'tool_choice: type "tool" and "any" are not supported for this model.';
  return undefined;
}

function forced(body: Record<string, unknown>): boolean {
  const choice = body['tool_choice'];
  return isRecord(choice) && (choice['type'] === 'tool' || choice['type'] === 'any');
}

function forcedToolProblem(body: Record<string, unknown>): string | undefined {
  if (!forced(body) || thinkingMode(body) === 'off') return undefined;
  return 'Thinking may not be enabled when tool_choice forces tool use.';
}

const UNSUPPORTED_BOUNDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'minProperties',
  'maxProperties',
];

/** `output_config.format`: a JSON schema the constrained decoder can compile. */
function formatProblem(body: Record<string, unknown>): string | undefined {
  const config = body['output_config'];
  const format = isRecord(config) ? config['format'] : undefined;
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format) || format['type'] !== 'json_schema' || !isRecord(format['schema'])) {
    return 'output_config.format: expected {"type": "json_schema", "schema": {...}}';
  }
  const problem = schemaProblem(format['schema']);
  return problem && `output_config.format.schema: ${problem}`;
}

function schemaProblem(schema: Record<string, unknown>): string | undefined {
  const type = typeof schema['type'] === 'string' ? schema['type'] : 'any';
  const bound = UNSUPPORTED_BOUNDS.find((key) => schema[key] !== undefined);
  if (bound !== undefined) return `For '${type}' type, property '${bound}' is not supported`;
  if (type === 'object' && schema['additionalProperties'] !== false) {
    return "For 'object' type, 'additionalProperties' must be explicitly set to false";
  }
  const inner = [
    ...Object.values(isRecord(schema['properties']) ? schema['properties'] : {}),
    schema['items'],
    ...list(schema['anyOf']),
    ...Object.values(isRecord(schema['$defs']) ? schema['$defs'] : {}),
  ];
  for (const part of inner) {
    const problem = isRecord(part) ? schemaProblem(part) : undefined;
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Thinking blocks go back as they came, and a tool loop goes on only with them: when the model
 * thinks, the assistant turn whose tool calls the last message answers must open with its thinking.
 */
function thinkingBlocksProblem(body: Record<string, unknown>): string | undefined {
  const model = String(body['model']);
  const messages = list(body['messages']).filter(isRecord);
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of list(message['content']).filter(isRecord).entries()) {
      if (block['type'] === 'thinking' && !validSignature(model, String(block['thinking']), String(block['signature']))) {
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  const last = messages.at(-1);
  const answered = messages.at(-2);
  const continues = last?.['role'] === 'user' && list(last['content']).some((block) => isRecord(block) && block['type'] === 'tool_result');
  if (!continues || answered === undefined || thinkingMode(body) === 'off') return undefined;
  const first = list(answered['content']).find(isRecord);
  if (first?.['type'] === 'thinking' || first?.['type'] === 'redacted_thinking') return undefined;
  return (
    `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.['type'])}\`. ` +
    'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceding the lastmost set of ' +
    '`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns.'
  );
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
