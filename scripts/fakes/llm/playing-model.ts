import { playingAnswer, playingRecap, taskOptions, type OutputLevel } from './playing-answer.ts';
import { reply, type FakeHandler, type FakeMessage, type FakeReply, type FakeRequest } from './fake-llm-server.ts';
import { unitOf } from './fake-seed.ts';
import { FORMAT_OUTPUT } from './fake-anthropic.ts';
import { isRecord } from './fake-wire.ts';

/**
 * How often a model names a player its task does not offer (dead, itself, or a skip it may not
 * take), per decision with options. The schema lets it name only seated players and the task lists
 * the legal ones, so what slips through is a model losing track of who is alive or what it may do
 * in a long transcript: rare, not never. 4 % is an estimate (the middle of 3–5 %), not a
 * measurement; it makes the bench pay for re-asks, each a second call of the whole turn.
 */
export const ILLEGAL_ANSWER_RATE = 0.04;

/** Draws of a request's seed (`unitOf`), one per question the model answers at random. */
const ILLEGAL_DRAW = 3;

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
  /** Which option to decide (default: a stable pick from the request's seed). */
  pick?: (options: readonly string[], request: FakeRequest) => string;
  /** What to say (default: words that fill the field as a real model would). */
  speech?: (decision: string, request: FakeRequest) => string;
  /** Replace the answer to some requests (faults, illegal moves); return undefined to play normally. */
  override?: (request: FakeRequest) => FakeReply | undefined;
  usage?: { input?: number; output?: number; cached?: number };
  delayMs?: number;
  /** How much the model writes (`OutputLevel`, default `terse`). */
  level?: OutputLevel;
  /** The share of decisions with options that name one the task does not offer (default 0; the bench uses `ILLEGAL_ANSWER_RATE`). */
  illegalRate?: number;
}

/** What a verbose model writes before it calls a tool on Anthropic, whose `tool_choice` is `auto` (OpenAI's tool calls come bare). */
const PREAMBLE = 'Let me weigh what happened before I decide.';

/** Anthropic's `tool_choice` is an object, and a forced tool leaves no room for text. */
function preamble(request: FakeRequest): Partial<FakeMessage> {
  const choice = request.body['tool_choice'];
  return isRecord(choice) && choice['type'] === 'auto' ? { text: PREAMBLE } : {};
}

/** At night a verbose model first reads the last day's transcript: one real tool round before it answers. */
function transcriptRound(request: FakeRequest, task: string): FakeMessage | undefined {
  const night = /^# Now: night, day (\d+)$/m.exec(task);
  const asked = request.transcript.some((turn) => turn.toolCalls?.some((call) => call.name === 'read_transcript'));
  if (night === null || asked || !request.tools.includes('read_transcript')) return undefined;
  return reply.tool('read_transcript', { day: Math.max(1, Number(night[1]) - 1) }, preamble(request));
}

/**
 * A scripted model that plays Mafia through the real wire: decisions, speeches, summaries. It plays
 * legally unless given an `illegalRate`. Everything it draws comes from the request's seed, so the
 * same request gets the same answer whatever else is in flight.
 */
export function playingModel(options: PlayingModelOptions = {}): FakeHandler {
  const level = options.level ?? 'terse';
  return (request) => {
    const overridden = options.override?.(request);
    if (overridden) return overridden;
    const { pick, speech } = options;
    const extra = { ...(options.usage && { usage: options.usage }), ...(options.delayMs && { delayMs: options.delayMs }) };
    if (!request.outputSchema) return reply.text(playingRecap(request.seed, level, request.system), extra);
    const task = taskText(request);
    const round = level === 'verbose' ? transcriptRound(request, task) : undefined;
    if (round) return { ...round, ...extra };
    const answer = playingAnswer(task, request.outputSchema, request.seed, {
      level,
      illegal: unitOf(request.seed, ILLEGAL_DRAW) < (options.illegalRate ?? 0),
      ...(pick && { pick: (choices) => pick(choices, request) }),
      ...(speech && { speech: (decision) => speech(decision, request) }),
    });
    // An answer in `output_config.format` is the schema's JSON and nothing else: no sentence before it.
    const lead = level === 'verbose' && request.outputName !== FORMAT_OUTPUT ? preamble(request) : {};
    return reply.structured(answer, { ...extra, ...lead });
  };
}
