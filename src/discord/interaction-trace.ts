/**
 * The interaction trace (INTERACTION_TRACE=true): one info line per interaction, the moment it
 * reached this process's router, in epoch ms. With the moments Discord's side knows (created,
 * dispatched, acknowledged) it splits an acknowledgement into where its time went; `npm run
 * bench:discord` reads it from each bot process's output.
 */

/** A traced arrival: the interaction's id and when it reached the router (epoch ms). */
export interface TracedArrival {
  readonly id: string;
  readonly at: number;
}

const LINE = /\btrace: interaction (\d+) reached the router at (\d+)\b/;

export function interactionTraceLine({ id, at }: TracedArrival): string {
  return `trace: interaction ${id} reached the router at ${at}`;
}

/** The arrival a log line reports, or null for any other line. */
export function readInteractionTrace(line: string): TracedArrival | null {
  const match = LINE.exec(line);
  return match?.[1] && match[2] ? { id: match[1], at: Number(match[2]) } : null;
}
