import { describe, expect, it } from 'vitest';
import { EditorTranscript } from '../../../src/discord/presenters/editor-transcript.ts';

describe('EditorTranscript', () => {
  it('GIVEN text and tool calls streaming in WHEN rendered THEN the text reads in order with one compact line per tool call', () => {
    const t = new EditorTranscript();
    t.apply({ type: 'text_delta', text: 'Let me look at ' });
    t.apply({ type: 'text_delta', text: 'the voice.' });
    t.apply({ type: 'tool_call', callId: 'c1', name: 'get_persona', input: {} });
    expect(t.render()).toBe('Let me look at the voice.\n🔧 get_persona …');
    t.apply({ type: 'tool_result', callId: 'c1', name: 'get_persona', text: '{}', isError: false });
    t.apply({ type: 'tool_call', callId: 'c2', name: 'run_test', input: {} });
    t.apply({ type: 'tool_result', callId: 'c2', name: 'run_test', text: 'No test input with that id.\nDetails…', isError: true });
    t.apply({ type: 'text_delta', text: 'The test input was gone; nothing else changed.' });
    t.apply({ type: 'done', reason: 'end_turn' });
    expect(t.render()).toBe(
      'Let me look at the voice.\n🔧 get_persona ✓\n🔧 run_test ✗ No test input with that id.\nThe test input was gone; nothing else changed.',
    );
  });

  it('GIVEN a queued message WHEN rendered THEN it says how many are ahead, until the reply starts', () => {
    const t = new EditorTranscript();
    t.apply({ type: 'queued', ahead: 2 });
    expect(t.render()).toBe('⏳ Queued behind 2 earlier messages…');
    t.apply({ type: 'text_delta', text: 'Now to your message.' });
    expect(t.render()).toBe('Now to your message.');
  });

  it('GIVEN a run stopped or failed WHEN rendered THEN the ending says so after what was written', () => {
    const stopped = new EditorTranscript();
    stopped.apply({ type: 'text_delta', text: 'Rewriting the tactics' });
    stopped.apply({ type: 'done', reason: 'stopped' });
    expect(stopped.render()).toBe('Rewriting the tactics\n\n⏹️ *Stopped. What was done so far is kept.*');
    const failed = new EditorTranscript();
    failed.apply({ type: 'error', code: 'no_model', message: 'No model is configured for the editor.' });
    expect(failed.render()).toBe('⚠️ No model is configured for the editor.');
  });
});
