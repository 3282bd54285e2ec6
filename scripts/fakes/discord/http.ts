/** A tiny router over node:http: percent-decoded paths, JSON and multipart bodies, Discord-shaped errors. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DiscordHttpError, methodNotAllowed, notFound, unauthorized } from './errors.ts';

export interface UploadedFile {
  /** Form field name, e.g. files[0] */
  field: string;
  index: number;
  filename: string;
  contentType: string | null;
  data: Buffer;
}

export interface RouteContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any;
  files: UploadedFile[];
  auth: 'bot' | 'none' | 'bad';
  headers: IncomingMessage['headers'];
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  keys: string[];
  handler: Handler;
  /** Requires `Authorization: Bot <token>`. */
  auth: boolean;
}

export const ok = (body: unknown): RouteResult => ({ status: 200, body });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
export const noContent = (): RouteResult => ({ status: 204 });

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, options: { auth?: boolean } = {}): this {
    const keys: string[] = [];
    const regex = new RegExp(
      '^' +
        pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_m, key: string) => {
          keys.push(key);
          return '([^/]+)';
        }) +
        '/?$',
    );
    this.routes.push({ method, pattern, regex, keys, handler, auth: options.auth ?? true });
    return this;
  }

  /** The first route matching the path: its pattern and params, and whether the method matches. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | { route: null; pathKnown: boolean } {
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      pathKnown = true;
      if (route.method !== method) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => (params[k] = m[i + 1]!));
      return { route, params };
    }
    return { route: null, pathKnown };
  }

  async handle(ctxBase: Omit<RouteContext, 'params'>): Promise<{ result: RouteResult; pattern: string }> {
    const found = this.match(ctxBase.method, ctxBase.path);
    if (!found.route) {
      const err = found.pathKnown ? methodNotAllowed() : notFound();
      return { result: { status: err.status, body: err.body() }, pattern: ctxBase.path };
    }
    const { route, params } = found;
    try {
      if (route.auth && ctxBase.auth !== 'bot') throw unauthorized();
      const result = await route.handler({ ...ctxBase, params });
      return { result, pattern: route.pattern };
    } catch (e) {
      if (e instanceof DiscordHttpError) return { result: { status: e.status, body: e.body() }, pattern: route.pattern };
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      return { result: { status: 500, body: { message: `500: Simulator error: ${message}`, code: 0 } }, pattern: route.pattern };
    }
  }
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** JSON or multipart/form-data (payload_json + files[n]) like discord.js sends them. */
export async function parseBody(req: IncomingMessage, raw: Buffer): Promise<{ body: any; files: UploadedFile[] }> {
  const type = req.headers['content-type'] ?? '';
  if (raw.length === 0) return { body: undefined, files: [] };
  if (type.startsWith('application/json')) {
    try {
      return { body: JSON.parse(raw.toString('utf8')), files: [] };
    } catch {
      throw new DiscordHttpError(400, 50109, 'The request body contains invalid JSON.');
    }
  }
  if (type.startsWith('multipart/form-data')) {
    // Node's only multipart parser; its deprecation warns servers off untrusted uploads, and these are discord.js's own, on loopback.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a loopback fake reading its own client's uploads (see above)
    const form = await new Request('http://sim.local/', { method: 'POST', headers: { 'content-type': type }, body: raw }).formData();
    let body: any = {};
    const files: UploadedFile[] = [];
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = { ...body, ...JSON.parse(value) };
        else body[field] = value;
      } else {
        const m = /^files\[(\d+)\]$/.exec(field) ?? /^file(\d*)$/.exec(field);
        files.push({
          field,
          index: m?.[1] ? Number(m[1]) : files.length,
          filename: value.name,
          contentType: value.type || null,
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
    }
    return { body, files };
  }
  return { body: raw.toString('utf8'), files: [] };
}

export function send(res: ServerResponse, result: RouteResult): void {
  if (result.status === 204 || result.body === undefined) {
    res.writeHead(result.status === 200 ? 204 : result.status);
    res.end();
    return;
  }
  if (Buffer.isBuffer(result.body)) {
    res.writeHead(result.status, { 'content-type': 'application/octet-stream' });
    res.end(result.body);
    return;
  }
  const json = JSON.stringify(result.body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) };
  // discord.js waits as long as a 429 says, from its headers.
  if (result.status === 429) {
    const after = (result.body as { retry_after?: number }).retry_after ?? 1;
    Object.assign(headers, { 'retry-after': after, 'x-ratelimit-scope': 'user', 'x-ratelimit-global': 'false' });
  }
  res.writeHead(result.status, headers);
  res.end(json);
}
