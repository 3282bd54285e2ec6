import { reply, type FakeHandler, type FakeReply, type FakeRequest } from './fake-llm-server.ts';

interface DecisionSchemaShape {
  properties?: { decision?: { enum?: string[] }; speech?: { const?: string } };
}

/** The decision output schema a request asks for, whichever provider's wire it came over. */
export function outputSchemaOf(request: FakeRequest): DecisionSchemaShape | undefined {
  const format = request.body.response_format as { json_schema?: { schema?: DecisionSchemaShape } } | undefined;
  if (format?.json_schema?.schema) return format.json_schema.schema;
  const tools = (request.body.tools ?? []) as { name?: string; input_schema?: DecisionSchemaShape }[];
  return tools.find((t) => t.name === request.outputName)?.input_schema;
}

export function optionsOf(request: FakeRequest): string[] {
  return outputSchemaOf(request)?.properties?.decision?.enum ?? [];
}

/** The seat's name, read from its own system prompt. */
export function seatNameOf(request: FakeRequest): string {
  return /as (.+?) \(seat \d+\)/.exec(request.system)?.[1] ?? 'someone';
}

export interface PlayingModelOptions {
  /** Which option to decide (default: a stable pick from the request's index). */
  pick?: (options: readonly string[], request: FakeRequest) => string;
  /** What to say (default: a line naming the pick). */
  speech?: (decision: string, request: FakeRequest) => string;
  /** Replace the answer to some requests (faults, illegal moves); return undefined to play normally. */
  override?: (request: FakeRequest) => FakeReply | undefined;
  usage?: { input?: number; output?: number; cached?: number };
  delayMs?: number;
}

/** A scripted model that plays Mafia legally through the real wire: decisions, speeches, summaries. */
export function playingModel(options: PlayingModelOptions = {}): FakeHandler {
  return (request) => {
    const overridden = options.override?.(request);
    if (overridden) return overridden;
    const extra = { ...(options.usage && { usage: options.usage }), ...(options.delayMs && { delayMs: options.delayMs }) };
    const schema = outputSchemaOf(request);
    if (!schema) return reply.text('A tense day: accusations flew, and the vote split the town.', extra);
    const choices = schema.properties?.decision?.enum ?? ['none'];
    const decision = options.pick?.(choices, request) ?? choices[request.index % choices.length]!;
    const fixed = schema.properties?.speech?.const;
    const said = fixed ?? options.speech?.(decision, request) ?? `${seatNameOf(request)} has made up their mind.`;
    return reply.structured(
      {
        observations: 'The table is restless.',
        analysis: 'Nothing certain yet.',
        beliefs: [],
        strategy: 'Stay consistent.',
        decision,
        speech: said,
        urgency: 1,
      },
      extra,
    );
  };
}
