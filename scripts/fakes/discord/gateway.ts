/**
 * The fake gateway: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, dispatches to identified
 * sessions. Sharded sessions get only their guilds' events (`(guild_id >> 22) % num_shards`) and
 * DMs only on shard 0, as Discord routes them.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayOpcodes } from 'discord.js';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { randomToken } from './ids.ts';

export interface GatewaySession {
  id: string;
  /** null while disconnected: dispatches are kept for a RESUME. */
  socket: WebSocket | null;
  detachedAt: number | null;
  intents: number;
  seq: number;
  /** Every dispatch of this session, in order (replayed after s on RESUME). */
  sent: { t: string; d: unknown; s: number }[];
  /** `[shard_id, num_shards]` from IDENTIFY; null for an unsharded session (every guild, every DM). */
  shard: readonly [number, number] | null;
}

/** The shard Discord assigns a guild to: `(guild_id >> 22) % num_shards`. */
export function shardOf(guildId: string, shards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shards));
}

/** Whether a session receives an event of this guild (null: not a guild's event, e.g. a DM, which goes to shard 0). */
export function receives(session: Pick<GatewaySession, 'shard'>, guildId: string | null): boolean {
  if (!session.shard) return true;
  const [id, count] = session.shard;
  return guildId === null ? id === 0 : shardOf(guildId, count) === id;
}

/** The guild an event belongs to, as Discord routes it to a shard. */
function guildOfEvent(t: string, d: unknown): string | null {
  if (typeof d !== 'object' || d === null) return null;
  const record = d as { guild_id?: unknown; id?: unknown };
  if (typeof record.guild_id === 'string') return record.guild_id;
  if ((t === 'GUILD_CREATE' || t === 'GUILD_UPDATE' || t === 'GUILD_DELETE') && typeof record.id === 'string') return record.id;
  return null;
}

/** How long a disconnected session may still be resumed. */
const RESUMABLE_MS = 60_000;

export interface GatewayHooks {
  token: string;
  /** READY's data plus the GUILD_CREATE payloads to follow. */
  onIdentify(session: GatewaySession): { ready: Record<string, unknown>; guilds: Record<string, unknown>[] };
  onRequestMembers?(session: GatewaySession, d: Record<string, any>): void;
  onOp?(session: GatewaySession, op: number, d: unknown): void;
  resumeUrl(): string;
}

export class FakeGateway {
  readonly wss = new WebSocketServer({ noServer: true });
  /** Sessions, connected or waiting for a RESUME. */
  private readonly allSessions = new Map<string, GatewaySession>();

  /** Sessions whose socket is open. */
  get sessions(): Set<GatewaySession> {
    return new Set([...this.allSessions.values()].filter((x) => x.socket !== null));
  }
  /** Query strings the clients connected with (encoding, compress …). */
  readonly connections: { query: string; at: number }[] = [];
  heartbeatIntervalMs = 41250;

  constructor(private readonly hooks: GatewayHooks) {}

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.connections.push({ query: url.search, at: Date.now() });
    if (url.searchParams.get('encoding') && url.searchParams.get('encoding') !== 'json') {
      socket.destroy(); // etf is never requested by discord.js 14 (no erlpack support in @discordjs/ws)
      return;
    }
    if (url.searchParams.get('compress')) {
      socket.destroy(); // zlib-stream only when zlib-sync is installed; it is not here
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  private onConnection(ws: WebSocket): void {
    let session: GatewaySession = { id: randomToken(32), socket: ws, detachedAt: null, intents: 0, seq: 0, sent: [], shard: null };
    let identified = false;
    ws.send(
      JSON.stringify({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.heartbeatIntervalMs, _trace: ['sim'] }, s: null, t: null }),
    );
    ws.on('message', (raw) => {
      let payload: { op: GatewayOpcodes; d: any };
      try {
        payload = JSON.parse(textOf(raw));
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      this.hooks.onOp?.(session, payload.op, payload.d);
      switch (payload.op) {
        case GatewayOpcodes.Heartbeat:
          ws.send(JSON.stringify({ op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null }));
          break;
        case GatewayOpcodes.Identify: {
          if (identified) {
            ws.close(4005, 'Already authenticated.');
            return;
          }
          const token = String(payload.d?.token ?? '').replace(/^Bot\s+/i, '');
          if (token !== this.hooks.token) {
            ws.close(4004, 'Authentication failed.');
            return;
          }
          const shard: unknown = payload.d?.shard;
          if (shard !== undefined) {
            const [id, count] = Array.isArray(shard) ? shard.map(Number) : [];
            if (
              id === undefined ||
              count === undefined ||
              !Number.isInteger(id) ||
              !Number.isInteger(count) ||
              id < 0 ||
              count < 1 ||
              id >= count
            ) {
              ws.close(4010, 'Invalid shard.');
              return;
            }
            session.shard = [id, count];
          }
          identified = true;
          session.intents = Number(payload.d?.intents ?? 0);
          this.allSessions.set(session.id, session);
          const { ready, guilds } = this.hooks.onIdentify(session);
          this.send(session, 'READY', { ...ready, session_id: session.id, resume_gateway_url: this.hooks.resumeUrl() });
          for (const g of guilds) this.send(session, 'GUILD_CREATE', g);
          break;
        }
        case GatewayOpcodes.Resume: {
          const old = this.allSessions.get(String(payload.d?.session_id));
          const token = String(payload.d?.token ?? '').replace(/^Bot\s+/i, '');
          if (!old || token !== this.hooks.token || old.socket !== null || Date.now() - (old.detachedAt ?? 0) > RESUMABLE_MS) {
            ws.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null }));
            break;
          }
          old.socket = ws;
          old.detachedAt = null;
          session = old;
          identified = true;
          const after = Number(payload.d?.seq ?? 0);
          this.resumes++;
          for (const e of old.sent) if (e.s > after) ws.send(JSON.stringify({ op: GatewayOpcodes.Dispatch, t: e.t, s: e.s, d: e.d }));
          this.send(old, 'RESUMED', { _trace: ['sim'] });
          break;
        }
        case GatewayOpcodes.RequestGuildMembers:
          if (identified) this.hooks.onRequestMembers?.(session, payload.d ?? {});
          break;
        default:
          break; // presence/voice updates: accepted and ignored
      }
    });
    const detach = () => {
      if (session.socket === ws) {
        session.socket = null;
        session.detachedAt = Date.now();
      }
    };
    ws.on('close', detach);
    ws.on('error', detach);
  }

  /** RESUMEs answered with the missed events. */
  resumes = 0;

  /** Whether it went out on an open socket now (otherwise it waits for a RESUME). */
  send(session: GatewaySession, t: string, d: unknown): boolean {
    session.seq++;
    session.sent.push({ t, d, s: session.seq });
    const socket = session.socket;
    if (!socket || socket.readyState !== socket.OPEN) return false;
    socket.send(JSON.stringify({ op: GatewayOpcodes.Dispatch, t, s: session.seq, d }));
    return true;
  }

  /** Connected sessions and those that may still resume. */
  liveSessions(): GatewaySession[] {
    const now = Date.now();
    const out: GatewaySession[] = [];
    for (const s of this.allSessions.values()) {
      if (s.socket === null && now - (s.detachedAt ?? now) > RESUMABLE_MS) this.allSessions.delete(s.id);
      else out.push(s);
    }
    return out;
  }

  /** Dispatches to every identified session whose intents include `intent` (when given); how many got it on an open socket. */
  dispatch(t: string, d: unknown, intent?: number | ((intents: number) => boolean)): number {
    const guildId = guildOfEvent(t, d);
    let sent = 0;
    for (const s of this.liveSessions()) {
      if (!receives(s, guildId)) continue;
      if (typeof intent === 'number' && (s.intents & intent) === 0) continue;
      if (typeof intent === 'function' && !intent(s.intents)) continue;
      if (this.send(s, t, d)) sent++;
    }
    return sent;
  }

  /** Forgets the events kept for RESUME so far (a long run's memory); a session resumed later gets only what came after. */
  forgetSent(): void {
    for (const s of this.allSessions.values()) s.sent.length = 0;
    this.connections.length = 0;
  }

  /** Drops every connection (the client sees a close and reconnects). */
  disconnectAll(code = 4000): void {
    for (const s of this.sessions) s.socket?.close(code, 'Simulated disconnect');
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    this.allSessions.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** A frame's text: ws hands over a Buffer, or an ArrayBuffer or fragments under other binary types. */
function textOf(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.from(raw).toString('utf8');
}
