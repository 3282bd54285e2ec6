import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { toolCallOf, type ChatOutcome } from './openai-response.ts';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Folds streamed chunks into the completion they describe. Tool calls arrive as fragments keyed
 * by `index`: the first names the call, the rest append to its JSON arguments.
 *
 * The SDK's `chat.completions.stream()` helper does this too, but throws when the final content is
 * not valid JSON for a `json_schema` response format, or when a chunk lacks `finish_reason`; here a
 * malformed answer must come back as `structured: undefined` and lenient local servers must work.
 */
export class ChatChunkAssembler {
  #content = '';
  #refusal = '';
  readonly #calls = new Map<number, PartialCall>();
  #finishReason: string | null = null;
  #usage: CompletionUsage | null = null;
  #model = '';

  /** Adds a chunk; returns its text delta ('' when it has none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.model) this.#model = chunk.model;
    if (chunk.usage) this.#usage = chunk.usage;
    let text = '';
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      if (choice.finish_reason) this.#finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta.content) text += delta.content;
      if (delta.refusal) this.#refusal += delta.refusal;
      for (const fragment of delta.tool_calls ?? []) {
        const call = this.#calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name = fragment.function.name;
        if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
        this.#calls.set(fragment.index, call);
      }
    }
    this.#content += text;
    return text;
  }

  outcome(): ChatOutcome {
    const calls = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => toolCallOf(call.id || `call_${index}`, call.name, call.arguments));
    return {
      content: this.#content,
      refusal: this.#refusal === '' ? null : this.#refusal,
      toolCalls: calls,
      finishReason: this.#finishReason,
      usage: this.#usage,
      model: this.#model,
    };
  }
}
