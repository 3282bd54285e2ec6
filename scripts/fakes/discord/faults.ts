/** Discord's 403, 404, 429 and 5xx on demand: matching REST calls answered with an error, changing nothing. */

/** A REST answer forced on matching calls: Discord's 403, 404, 429 and 5xx on demand. */
export interface Fault {
  method?: string;
  /** A route pattern (`/channels/:channelId/webhooks`) or a RegExp on the path. */
  route: string | RegExp;
  status: 403 | 404 | 429 | 500 | 502 | 503;
  /** Discord's JSON error code (50013 Missing Permissions, 10003 Unknown Channel …); 0 when unset. */
  code?: number;
  message?: string;
  /** How many calls it answers; forever when unset. */
  times?: number;
}

interface ActiveFault extends Fault {
  left: number;
}

const FAULT_TEXT: Record<Fault['status'], string> = {
  403: 'Missing Permissions',
  404: 'Not Found',
  429: 'You are being rate limited.',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export class Faults {
  private readonly active = new Set<ActiveFault>();

  /** Forces matching calls to fail; returns a function that lifts it. */
  add(fault: Fault): () => void {
    const active: ActiveFault = { ...fault, left: fault.times ?? Number.POSITIVE_INFINITY };
    this.active.add(active);
    return () => this.active.delete(active);
  }

  /** The answer of the first fault matching this call, if any (counted as used). */
  answer(method: string, path: string, pattern: string): { status: number; body: unknown } | null {
    for (const fault of this.active) {
      if (fault.method !== undefined && fault.method !== method) continue;
      if (typeof fault.route === 'string' ? fault.route !== pattern : !fault.route.test(path)) continue;
      fault.left--;
      if (fault.left <= 0) this.active.delete(fault);
      const message = fault.message ?? `${fault.status}: ${FAULT_TEXT[fault.status]}`;
      const body =
        fault.status === 429 ? { message, retry_after: 0.05, global: false, code: fault.code ?? 0 } : { message, code: fault.code ?? 0 };
      return { status: fault.status, body };
    }
    return null;
  }
}
