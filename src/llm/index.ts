// The LLM layer: provider-neutral types, zod-defined tools, the two SDK-backed providers, the tool loop.
export * from './types.ts';
export { defineTool, jsonSchemaOf, toolSpec, type Tool } from './tool.ts';
export { createOpenAiProvider, type OpenAiProviderOptions } from './openai-provider.ts';
export type { TokenLimitField } from './openai-request.ts';
export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.ts';
export { runToolLoop, type CallRecord, type ToolLoopOptions, type ToolLoopOutcome } from './tool-loop.ts';
export { runToolCalls } from './run-tool-calls.ts';
export { createProvider, isConfigured, resolveModel, OFFLINE_MODEL, type ModelChoice, type ModelPreference } from './providers.ts';
export { toLlmError } from './errors.ts';
export { strictJsonSchema } from './strict-schema.ts';
