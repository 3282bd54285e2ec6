import type { Tool } from '../../../llm/tool.ts';
import { COMPOSITION_TOOLS } from './composition-tools.ts';
import type { EditorToolContext } from './context.ts';
import { PERSONA_TOOLS } from './persona-tools.ts';
import { TEST_INPUT_TOOLS } from './test-input-tools.ts';

export type { EditorToolContext } from './context.ts';
export { previewOf, type Preview } from './preview.ts';

/** Every tool of the editor agent; each acts on the session's persona only. */
export const EDITOR_TOOLS: readonly Tool<unknown, EditorToolContext>[] = [...PERSONA_TOOLS, ...COMPOSITION_TOOLS, ...TEST_INPUT_TOOLS];
