import type { LlmProvider, StreamDelta } from '../../src/llm/types.ts';
import type { FakeLlmServer } from '../fakes/llm/fake-llm-server.ts';

/** Far longer than one loopback round trip: past it, a call is lost between client and fake, and the game would hang. */
const STUCK_MS = 60_000;

export interface ClockGate {
  /** The client, counted: wrap the SDK's provider with it, under any retrying (a retry's pause is on the clock). */
  readonly provider: LlmProvider;
  /** For `createHeadless`: resolves once every call the client has sent waits on the fake's clock, true if it had to wait. */
  readonly outsideWork: () => Promise<boolean>;
}

/**
 * Lets a game's manual clock move while models answer on it (a wire fake with `clock`), but only
 * once every call the client has sent is held by the fake, never while one is on the wire or
 * being read: then each request arrives, and each answer is read, at the same game time every run.
 */
export function clockGate(client: LlmProvider, fake: FakeLlmServer): ClockGate {
  let inFlight = 0;
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const wake of [...waiters]) wake();
  };
  fake.onWaitingChange(changed);
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await work();
    } finally {
      inFlight--;
      changed();
    }
  };
  async function* stream(request: Parameters<LlmProvider['stream']>[0]): AsyncIterable<StreamDelta> {
    inFlight++;
    try {
      yield* client.stream(request);
    } finally {
      inFlight--;
      changed();
    }
  }
  const provider: LlmProvider = { name: client.name, complete: (request) => counted(() => client.complete(request)), stream };
  const outsideWork = (): Promise<boolean> => {
    if (inFlight === fake.waitingOnClock) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      const stuck = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`the clock gate waited ${STUCK_MS} ms: ${inFlight} calls in flight, ${fake.waitingOnClock} held by the fake`));
      }, STUCK_MS);
      const wake = (): void => {
        if (inFlight !== fake.waitingOnClock) return;
        clearTimeout(stuck);
        waiters.delete(wake);
        resolve(true);
      };
      waiters.add(wake);
    });
  };
  return { provider, outsideWork };
}
