import { playingAnswer, playingRecap, taskOptions } from './playing-answer.ts';
import { reply, type FakeHandler, type FakeReply, type FakeRequest } from './fake-llm-server.ts';

/** The task turn of the request: the last user turn that states a task (a re-ask's complaint follows it). */
function taskText(request: FakeRequest): string {
  const task = request.transcript.findLast((turn) => turn.role === 'user' && turn.text.includes('# Your task'));
  return task?.text ?? request.lastUserText;
}

/** The options the request's task lists for "decision". */
export function optionsOf(request: FakeRequest): string[] {
  return taskOptions(taskText(request));
}

/** The seat's name, read from its own system prompt. */
export function seatNameOf(request: FakeRequest): string {
  return /as (.+?) \(seat \d+\)/.exec(request.system)?.[1] ?? 'someone';
}

export interface PlayingModelOptions {
  /** Which option to decide (default: a stable pick from the request's index). */
  pick?: (options: readonly string[], request: FakeRequest) => string;
  /** What to say (default: words that fill the field as a real model would). */
  speech?: (decision: string, request: FakeRequest) => string;
  /** Replace the answer to some requests (faults, illegal moves); return undefined to play normally. */
  override?: (request: FakeRequest) => FakeReply | undefined;
  usage?: { input?: number; output?: number; cached?: number };
  delayMs?: number;
  /** How much of each field's stated length the model writes (default 0.7). */
  fill?: number;
}

/** A scripted model that plays Mafia legally through the real wire: decisions, speeches, summaries. */
export function playingModel(options: PlayingModelOptions = {}): FakeHandler {
  return (request) => {
    const overridden = options.override?.(request);
    if (overridden) return overridden;
    const { pick, speech } = options;
    const extra = { ...(options.usage && { usage: options.usage }), ...(options.delayMs && { delayMs: options.delayMs }) };
    if (!request.outputSchema) return reply.text(playingRecap(request.index), extra);
    const answer = playingAnswer(taskText(request), request.outputSchema, request.index, {
      ...(options.fill !== undefined && { fill: options.fill }),
      ...(pick && { pick: (choices) => pick(choices, request) }),
      ...(speech && { speech: (decision) => speech(decision, request) }),
    });
    return reply.structured(answer, extra);
  };
}
