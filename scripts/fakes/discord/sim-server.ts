/** The simulator's one loopback port: REST calls (recorded, held or failed on demand) and the gateway's upgrades. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Faults } from './faults.ts';
import type { FakeGateway } from './gateway.ts';
import { Holds } from './holds.ts';
import { parseBody, readBody, type Router, send } from './http.ts';
import type { RestCall, SimAttachment } from './model.ts';

/** How long Discord's API (behind Cloudflare) keeps an idle HTTP/1.1 connection open (Cloudflare's connection limits). */
const CLOUDFLARE_KEEP_ALIVE_MS = 400_000;

export interface SimServerDeps {
  readonly token: string;
  readonly router: Router;
  readonly gateway: FakeGateway;
  /** Every REST call answered, in order. */
  readonly calls: RestCall[];
  /** Wakes whoever waits on the simulator's state. */
  readonly changed: () => void;
  /** An uploaded file by id, served at its url. */
  readonly attachment: (id: string) => SimAttachment | undefined;
}

export class SimServer {
  private server!: Server;
  /** The port listened on, once listening. */
  port = 0;
  private readonly restSockets = new WeakSet<Socket>();
  private restSocketCount = 0;
  readonly faults = new Faults();
  readonly holds: Holds;

  constructor(private readonly deps: SimServerDeps) {
    this.holds = new Holds(deps.changed);
  }

  /** TCP connections REST requests came on (a client that keeps its connections opens few). */
  get restConnections(): number {
    return this.restSocketCount;
  }

  async listen(): Promise<void> {
    this.server = createServer({ keepAliveTimeout: CLOUDFLARE_KEEP_ALIVE_MS }, (req, res) => {
      // Stated by hand, Node adds no `Keep-Alive: timeout=` hint (Cloudflare gives none): a client
      // keeps the connection only as long as it chooses.
      res.setHeader('connection', 'keep-alive');
      if (!this.restSockets.has(req.socket)) {
        this.restSockets.add(req.socket);
        this.restSocketCount++;
      }
      void this.onRequest(req, res);
    });
    this.server.on('upgrade', (req, socket, head) => {
      if ((req.url ?? '').startsWith('/gateway')) this.deps.gateway.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const raw = await readBody(req);
    const att = /^\/attachments\/(\d+)\/(\d+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && att) {
      const found = this.deps.attachment(att[2]!);
      if (!found) {
        send(res, { status: 404, body: { message: '404: Not Found', code: 0 } });
        return;
      }
      res.writeHead(200, { 'content-type': found.contentType ?? 'application/octet-stream', 'content-length': found.data.length });
      res.end(found.data);
      return;
    }
    const m = /^\/api(?:\/v(\d+))?(\/.*)$/.exec(url.pathname);
    if (!m) {
      send(res, { status: 404, body: { message: '404: Not Found', code: 0 } });
      return;
    }
    const path = m[2]!
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
    const header = req.headers.authorization;
    const auth = header === undefined ? 'none' : header === `Bot ${this.deps.token}` ? 'bot' : 'bad';
    const method = (req.method ?? 'GET').toUpperCase();
    const call: RestCall = {
      method,
      path,
      route: path,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      files: [],
      status: 0,
      response: undefined,
      at: Date.now(),
      auth,
    };
    let result;
    try {
      const { body, files } = await parseBody(req, raw);
      call.body = body;
      call.files = files.map((f) => ({ name: f.field, filename: f.filename, size: f.data.length, contentType: f.contentType }));
      const found = this.deps.router.match(method, path);
      await this.holds.wait(method, path, found.route ? found.route.pattern : path);
      const forced = this.forcedAnswer(method, path);
      if (forced) {
        call.route = forced.pattern;
        result = forced.result;
      } else {
        const handled = await this.deps.router.handle({ method, path, query: url.searchParams, body, files, auth, headers: req.headers });
        call.route = handled.pattern;
        result = handled.result;
      }
    } catch (e) {
      const err = e as { status?: number; body?: () => unknown; message?: string };
      result =
        typeof err.body === 'function'
          ? { status: err.status ?? 400, body: err.body() }
          : { status: 500, body: { message: String(err.message), code: 0 } };
    }
    call.status = result.status === 200 && result.body === undefined ? 204 : result.status;
    call.response = result.body;
    this.deps.calls.push(call);
    send(res, result);
    this.deps.changed();
  }

  /** The answer of the first fault matching this call, if any (the call then changes nothing). */
  private forcedAnswer(method: string, path: string): { pattern: string; result: { status: number; body: unknown } } | null {
    const found = this.deps.router.match(method, path);
    const pattern = found.route ? found.route.pattern : path;
    const result = this.faults.answer(method, path, pattern);
    return result ? { pattern, result } : null;
  }
}
