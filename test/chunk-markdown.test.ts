import { describe, expect, it } from 'vitest';
import { chunkMarkdown, openFence } from '../src/chunk-markdown.ts';

describe('chunkMarkdown', () => {
  it('GIVEN short text WHEN chunked THEN it is one message, unchanged', () => {
    expect(chunkMarkdown('Hello **there**', 2000)).toEqual(['Hello **there**']);
  });

  it('GIVEN prose longer than the limit WHEN chunked THEN every chunk fits and cuts fall between lines, losing no words', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${i} says something about the persona's voice.`);
    const chunks = chunkMarkdown(lines.join('\n'), 2000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(2000);
    expect(chunks.join('\n').split('\n')).toEqual(lines);
  });

  it('GIVEN a code fence that spans the cut WHEN chunked THEN the first chunk closes it and the next reopens it with its language', () => {
    const code = Array.from({ length: 80 }, (_, i) => `  "field${i}": "value number ${i}",`).join('\n');
    const text = `Here is the JSON:\n\`\`\`json\n{\n${code}\n}\n\`\`\`\nDone.`;
    const chunks = chunkMarkdown(text, 1000);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(1000);
      expect(openFence(c)).toBeNull();
    }
    for (const c of chunks.slice(1, -1)) expect(c.startsWith('```json\n')).toBe(true);
    expect(chunks.at(-1)!.endsWith('Done.')).toBe(true);
  });

  it('GIVEN one unbroken word longer than the limit WHEN chunked THEN it is cut hard and still fits', () => {
    const chunks = chunkMarkdown('x'.repeat(4500), 2000);
    expect(chunks.map((c) => c.length)).toEqual([1996, 1996, 508]);
  });
});
