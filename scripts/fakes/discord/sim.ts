/** startDiscordSim: the world, the REST server and the gateway on one loopback port, plus the assertion helpers. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ChannelType, MessageFlags } from 'discord.js';
import { SimCore } from './core.ts';
import { FakeGateway, receives, shardOf, type GatewaySession } from './gateway.ts';
import { Holds, type Held, type HoldSpec } from './holds.ts';
import { parseBody, readBody, Router, send } from './http.ts';
import { randomToken, Snowflakes } from './ids.ts';
import { InteractionHandle } from './handle.ts';
import { botIsMember, kickBot } from './kick.ts';
import { Interactions, type SimInteraction } from './interactions.ts';
import { type RestCall, type SimChannel, type SimGuild, type SimMessage, type SimWebhook, World } from './model.ts';
import { BOT_DEFAULT, channelPermissions, EVERYONE_DEFAULT, isThread, P } from './permissions.ts';
import { deleteInBulk, unfurlLink } from './message-changes.ts';
import { channelRoutes } from './routes/channels.ts';
import { miscRoutes } from './routes/misc.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { apiGuild, apiMember, apiUser } from './serialize.ts';
import { type ChannelRef, SimUser } from './users.ts';

export interface MemberSpec {
  name: string;
  /** Owns the server (all permissions). */
  owner?: boolean;
  /** Gets a role with Manage Server. */
  manageServer?: boolean;
  administrator?: boolean;
  /** Extra permissions through a role of their own. */
  permissions?: bigint;
  nick?: string;
  /** false: the bot's DMs to them fail with 50007. */
  dmsOpen?: boolean;
}

export interface ChannelSpec {
  name: string;
  topic?: string;
}

export interface GuildSpec {
  name: string;
  channels?: (string | ChannelSpec)[];
  members?: (string | MemberSpec)[];
  /** The bot's role permissions (default: BOT_DEFAULT, no Administrator). */
  botPermissions?: bigint;
  /** @everyone's permissions (default: EVERYONE_DEFAULT). */
  everyonePermissions?: bigint;
  /** An id that puts the guild on this shard of `of` shards, as Discord routes it. */
  onShard?: { shard: number; of: number };
}

export interface SimOptions {
  guilds?: GuildSpec[];
  botName?: string;
  token?: string;
  /** Time the bot has for an interaction's first callback (Discord: 3000). */
  ackTimeoutMs?: number;
  /** Default timeout of the waits on interaction handles. */
  waitTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** The shard count `/gateway/bot` recommends (default 1). */
  recommendedShards?: number;
}

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

/** How long Discord's API (behind Cloudflare) keeps an idle HTTP/1.1 connection open (Cloudflare's connection limits). */
const CLOUDFLARE_KEEP_ALIVE_MS = 400_000;

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

export class DiscordSim extends SimCore {
  readonly interactions: Interactions;
  readonly token: string;
  readonly router = new Router();
  private server!: Server;
  private port = 0;
  private readonly usersByName = new Map<string, SimUser>();
  private readonly simUsers = new Map<string, SimUser>();
  private readonly closers: (() => Promise<void> | void)[] = [];
  private readonly faults = new Set<ActiveFault>();
  private readonly holds = new Holds(() => this.changed());
  private readonly restSockets = new WeakSet<Socket>();
  private restSocketCount = 0;
  readonly waitTimeoutMs: number;

  constructor(world: World, gateway: FakeGateway, token: string, botUserId: string, options: SimOptions) {
    super(world, gateway, botUserId, botUserId, () => `http://127.0.0.1:${this.port}`);
    this.token = token;
    this.interactions = new Interactions(this);
    this.interactions.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? 5000;
    miscRoutes(this.router, this, () => this.gatewayUrl, options.recommendedShards ?? 1);
    channelRoutes(this.router, this);
    webhookRoutes(this.router, this, this.interactions);
  }

  /** TCP connections REST requests came on (a client that keeps its connections opens few). */
  get restConnections(): number {
    return this.restSocketCount;
  }

  /** `rest.api` for discord.js: `new Client({ rest: { api: sim.restApi } })`. */
  get restApi(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }
  get botUser(): Record<string, unknown> {
    return apiUser(this.world, this.botUserId);
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
      if ((req.url ?? '').startsWith('/gateway')) this.gateway.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    const raw = await readBody(req);
    const att = /^\/attachments\/(\d+)\/(\d+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && att) {
      const found = this.findAttachment(att[2]!);
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
    const auth = header === undefined ? 'none' : header === `Bot ${this.token}` ? 'bot' : 'bad';
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
      const found = this.router.match(method, path);
      await this.holds.wait(method, path, found.route ? found.route.pattern : path);
      const forced = this.forcedAnswer(method, path);
      if (forced) {
        call.route = forced.pattern;
        result = forced.result;
      } else {
        const handled = await this.router.handle({ method, path, query: url.searchParams, body, files, auth, headers: req.headers });
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
    this.calls.push(call);
    send(res, result);
    this.changed();
  }

  /** The answer of the first fault matching this call, if any (the call then changes nothing). */
  private forcedAnswer(method: string, path: string): { pattern: string; result: { status: number; body: unknown } } | null {
    const found = this.router.match(method, path);
    const pattern = found.route ? found.route.pattern : path;
    for (const fault of this.faults) {
      if (fault.method !== undefined && fault.method !== method) continue;
      if (typeof fault.route === 'string' ? fault.route !== pattern : !fault.route.test(path)) continue;
      fault.left--;
      if (fault.left <= 0) this.faults.delete(fault);
      const message = fault.message ?? `${fault.status}: ${FAULT_TEXT[fault.status]}`;
      const body =
        fault.status === 429 ? { message, retry_after: 0.05, global: false, code: fault.code ?? 0 } : { message, code: fault.code ?? 0 };
      return { pattern, result: { status: fault.status, body } };
    }
    return null;
  }

  private findAttachment(id: string) {
    for (const u of this.simUsers.values()) {
      const a = u.attachments.get(id);
      if (a) return a;
    }
    for (const msg of this.world.messages.values()) {
      const a = msg.attachments.find((x) => x.id === id);
      if (a) return a;
    }
    return undefined;
  }

  /**
   * The same interaction started again now, under a new id and token, for whichever client is
   * connected: the bench replays a run's interactions against a client that only acknowledges, to
   * measure what acknowledging costs on this machine at that moment.
   */
  replay(original: SimInteraction): InteractionHandle {
    const id = this.ids.next();
    const token = `aW50ZXJhY3Rpb246${id}:${randomToken(60)}`;
    const interaction: SimInteraction = {
      ...original,
      id,
      token,
      payload: { ...original.payload, id, token },
      createdAt: Date.now(),
      callbacks: [],
      rejected: [],
      originalMessageId: null,
      versionsAtDefer: null,
      followUpIds: [],
    };
    this.interactions.add(interaction);
    this.gateway.dispatch('INTERACTION_CREATE', interaction.payload);
    this.changed();
    return new InteractionHandle(this, interaction, this.waitTimeoutMs);
  }

  // ------------------------------------------------------------------ building the world

  private ensureUser(name: string, dmsOpen = true): SimUser {
    const existing = this.usersByName.get(name);
    if (existing) return existing;
    const id = this.ids.next();
    const record = { id, username: name, globalName: name, bot: false, dmsOpen };
    this.world.users.set(id, record);
    const user = new SimUser(record, {
      core: this,
      interactions: this.interactions,
      resolveChannel: (ref) => this.resolveChannel(ref),
      defaultTimeoutMs: this.waitTimeoutMs,
      attachmentUrl: (channelId, attId, filename) => `${this.baseUrl()}/attachments/${channelId}/${attId}/${encodeURIComponent(filename)}`,
    });
    this.usersByName.set(name, user);
    this.simUsers.set(id, user);
    return user;
  }

  addGuild(spec: GuildSpec): SimGuild {
    const id = spec.onShard ? this.idOnShard(spec.onShard.shard, spec.onShard.of) : this.ids.next();
    const now = this.now();
    const guild: SimGuild = { id, name: spec.name, ownerId: '', members: new Map(), roles: new Map(), joinedAt: now };
    this.world.guilds.set(id, guild);
    guild.roles.set(id, {
      id,
      guildId: id,
      name: '@everyone',
      permissions: spec.everyonePermissions ?? EVERYONE_DEFAULT,
      position: 0,
      managed: false,
    });
    const botRole = {
      id: this.ids.next(),
      guildId: id,
      name: this.world.users.get(this.botUserId)!.username,
      permissions: spec.botPermissions ?? BOT_DEFAULT,
      position: 1,
      managed: true,
    };
    guild.roles.set(botRole.id, botRole);
    guild.members.set(this.botUserId, { userId: this.botUserId, guildId: id, roles: [botRole.id], nick: null, joinedAt: now });
    const specs = (spec.members ?? []).map((m) => (typeof m === 'string' ? { name: m } : m));
    if (!specs.some((m) => m.owner)) specs.unshift({ name: `${spec.name}-owner`, owner: true });
    for (const m of specs) this.addMember(guild, m);
    (spec.channels ?? ['general']).forEach((c) => this.addChannel(guild, typeof c === 'string' ? { name: c } : c));
    return guild;
  }

  /** A fresh snowflake whose guild would live on `shard` of `of`: its timestamp moved on a few ms until it does. */
  private idOnShard(shard: number, of: number): string {
    for (let at = Date.now(); ; at++) {
      const id = this.ids.next(at);
      if (shardOf(id, of) === shard) return id;
    }
  }

  addMember(guild: SimGuild, spec: MemberSpec): SimUser {
    const user = this.ensureUser(spec.name, spec.dmsOpen ?? true);
    const roles: string[] = [];
    const role = (name: string, permissions: bigint) => {
      let r = [...guild.roles.values()].find((x) => x.name === name);
      if (!r) {
        r = { id: this.ids.next(), guildId: guild.id, name, permissions, position: guild.roles.size, managed: false };
        guild.roles.set(r.id, r);
      }
      roles.push(r.id);
    };
    if (spec.manageServer) role('Moderator', P.ManageGuild);
    if (spec.administrator) role('Admin', P.Administrator);
    if (spec.permissions) role(`${spec.name}-role`, spec.permissions);
    if (spec.owner) guild.ownerId = user.id;
    guild.members.set(user.id, { userId: user.id, guildId: guild.id, roles, nick: spec.nick ?? null, joinedAt: this.now() });
    if (this.gateway.sessions.size > 0) {
      this.gateway.dispatch('GUILD_MEMBER_ADD', { ...apiMember(this.world, guild.members.get(user.id)!), guild_id: guild.id }, 1 << 1);
    }
    this.changed();
    return user;
  }

  addChannel(guild: SimGuild, spec: ChannelSpec): SimChannel {
    const ch: SimChannel = {
      id: this.ids.next(),
      type: ChannelType.GuildText,
      guildId: guild.id,
      name: spec.name,
      topic: spec.topic ?? null,
      position: [...this.world.channels.values()].filter((c) => c.guildId === guild.id).length,
      parentId: null,
      overwrites: [],
      recipientId: null,
      ownerId: null,
      threadMeta: null,
      threadMembers: new Map(),
      messageCount: 0,
      lastMessageId: null,
      rateLimitPerUser: 0,
      deleted: false,
    };
    this.world.channels.set(ch.id, ch);
    return ch;
  }

  /** READY + GUILD_CREATE payloads for a new gateway session. */
  /** READY and the GUILD_CREATEs for one session: a sharded one gets only its own guilds. */
  identifyPayloads(session: Pick<GatewaySession, 'shard'>) {
    const guilds = [...this.world.guilds.values()].filter((g) => receives(session, g.id) && botIsMember(this, g));
    return {
      ready: {
        v: 10,
        user: { ...apiUser(this.world, this.botUserId), verified: true, mfa_enabled: false, email: null },
        guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
        shard: session.shard ?? [0, 1],
        application: { id: this.appId, flags: 0 },
        private_channels: [],
        presences: [],
        relationships: [],
        guild_join_requests: [],
        user_settings: {},
        geo_ordered_rtc_regions: [],
        _trace: ['discord-sim'],
      },
      guilds: guilds.map((g) => apiGuild(this.world, g, true)),
    };
  }

  // ------------------------------------------------------------------ lookups

  /** A guild by name (or the only one). */
  guild(name?: string): SimGuild {
    const all = [...this.world.guilds.values()];
    const g = name === undefined ? all[0] : all.find((x) => x.name === name || x.id === name);
    if (!g) throw new Error(`no guild ${name ?? ''}`);
    return g;
  }

  /** A channel or thread by id or name (searched in every guild, or in `guild`). */
  channel(nameOrId: string, guild?: string): SimChannel {
    const byId = this.world.channel(nameOrId);
    if (byId) return byId;
    const g = guild ? this.guild(guild) : undefined;
    const found = [...this.world.channels.values()].filter((c) => !c.deleted && c.name === nameOrId && (!g || c.guildId === g.id));
    if (found.length === 0) throw new Error(`no channel ${nameOrId}`);
    return found[found.length - 1]!;
  }

  resolveChannel(ref: ChannelRef): SimChannel {
    if (typeof ref === 'string') return this.channel(ref);
    const ch = this.world.channel(ref.id);
    if (!ch) throw new Error(`no channel ${ref.id}`);
    return ch;
  }

  /** A simulated human by name or id. */
  user(nameOrId: string): SimUser {
    const u = this.usersByName.get(nameOrId) ?? this.simUsers.get(nameOrId);
    if (!u) throw new Error(`no simulated user ${nameOrId}`);
    return u;
  }

  get users(): SimUser[] {
    return [...this.simUsers.values()];
  }

  // ------------------------------------------------------------------ assertions

  /** Messages in a channel or thread: the public ones, plus `as` user's ephemerals when given. */
  messagesIn(ref: ChannelRef, options: { as?: string | SimUser } = {}): SimMessage[] {
    const ch = this.resolveChannel(ref);
    const as = options.as === undefined ? undefined : typeof options.as === 'string' ? this.user(options.as).id : options.as.id;
    return this.world.messagesOf(ch.id).filter((m) => !m.visibleTo || m.visibleTo === as);
  }

  /** Everything in the DM between the bot and a user, both directions, oldest first. */
  dmsOf(user: string | SimUser): SimMessage[] {
    const id = typeof user === 'string' ? this.user(user).id : user.id;
    const ch = this.world.dmChannels.get(id);
    return ch ? this.world.messagesOf(ch) : [];
  }

  /** Only what the bot sent to a user by DM. */
  dmsTo(user: string | SimUser): SimMessage[] {
    return this.dmsOf(user).filter((m) => m.authorId === this.botUserId);
  }

  /** Ephemeral messages only this user saw. */
  ephemeralsOf(user: string | SimUser): SimMessage[] {
    const id = typeof user === 'string' ? this.user(user).id : user.id;
    return [...this.world.messages.values()].filter((m) => m.visibleTo === id && !m.deleted);
  }

  /** User ids in a thread (the bot included when it is a member). */
  threadMembers(ref: ChannelRef): string[] {
    return [...this.resolveChannel(ref).threadMembers.keys()];
  }

  /** Threads under a channel. */
  threadsOf(ref: ChannelRef): SimChannel[] {
    const parent = this.resolveChannel(ref);
    return [...this.world.channels.values()].filter((c) => !c.deleted && isThread(c) && c.parentId === parent.id);
  }

  /** Messages posted through webhooks (with displayName = the username used, avatarUrl). */
  webhookMessages(ref?: ChannelRef): SimMessage[] {
    const ch = ref ? this.resolveChannel(ref) : undefined;
    return [...this.world.messages.values()].filter((m) => m.webhookId && !m.deleted && (!ch || m.channelId === ch.id));
  }

  webhooksIn(ref: ChannelRef): SimWebhook[] {
    const ch = this.resolveChannel(ref);
    return [...this.world.webhooks.values()].filter((w) => !w.deleted && w.channelId === ch.id);
  }

  /** Someone deletes a webhook by hand (the bot must notice and re-create it). */
  deleteWebhook(id: string): void {
    const w = this.world.webhooks.get(id);
    if (!w) throw new Error(`no webhook ${id}`);
    w.deleted = true;
    this.gateway.dispatch('WEBHOOKS_UPDATE', { guild_id: w.guildId, channel_id: w.channelId }, 1 << 5);
    this.changed();
  }

  /** Typing indicators the bot triggered in a channel. */
  typingIn(ref: ChannelRef): { at: number }[] {
    const ch = this.resolveChannel(ref);
    return this.world.typing.filter((t) => t.channelId === ch.id);
  }

  /** Permissions of a user (or the bot) in a channel. */
  permissionsOf(user: string | SimUser, ref: ChannelRef): bigint {
    const id = typeof user === 'string' ? (user === this.botUserId ? user : this.user(user).id) : user.id;
    return channelPermissions(this.world, this.resolveChannel(ref), id);
  }

  /** Registered commands: global (no argument) or of a guild. */
  commands(guild?: string): { name: string; options: unknown[]; raw: Record<string, unknown> }[] {
    const gid = guild ? this.guild(guild).id : null;
    return [...this.world.commands.values()].filter((c) => c.guildId === gid);
  }

  /** REST calls matching a method and a route pattern (`/channels/:channelId/messages`) or a RegExp on the path. */
  requests(method?: string, route?: string | RegExp): RestCall[] {
    return this.calls.filter(
      (c) => (!method || c.method === method) && (!route || (typeof route === 'string' ? c.route === route : route.test(c.path))),
    );
  }

  /** REST calls the simulator refused (status ≥ 400). */
  failedRequests(): RestCall[] {
    return this.calls.filter((c) => c.status >= 400);
  }

  /**
   * Forces matching REST calls to fail as Discord would (403 without a permission, 404 for a
   * deleted resource, 429, 5xx). Returns a function that lifts it.
   */
  fail(fault: Fault): () => void {
    const active: ActiveFault = { ...fault, left: fault.times ?? Number.POSITIVE_INFINITY };
    this.faults.add(active);
    return () => this.faults.delete(active);
  }

  /** Keeps matching REST calls waiting, unanswered, until `release()`: a slow Discord (start-up's command registration …). */
  hold(spec: HoldSpec): Held {
    return this.holds.add(spec);
  }

  /** A person leaves the server (with its gateway event, which only bots with the members intent get). */
  removeMember(guildName: string, userName: string): void {
    const guild = this.guild(guildName);
    const user = this.user(userName);
    guild.members.delete(user.id);
    this.gateway.dispatch('GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: apiUser(this.world, user.id) }, 1 << 1);
    this.changed();
  }

  /** The bot is kicked from a server: GUILD_DELETE, then 403 Missing Access on its channels (`kick.ts`). */
  kickBot(guildName: string): void {
    kickBot(this, this.guild(guildName));
  }

  /**
   * A server admin sets what the bot may do in a channel (a member overwrite for the bot, replacing
   * any earlier one), with the CHANNEL_UPDATE Discord sends.
   */
  setBotOverwrite(ref: ChannelRef, change: { allow?: bigint; deny?: bigint }): void {
    const ch = this.resolveChannel(ref);
    ch.overwrites = ch.overwrites.filter((o) => !(o.type === 1 && o.id === this.botUserId));
    ch.overwrites.push({ id: this.botUserId, type: 1, allow: change.allow ?? 0n, deny: change.deny ?? 0n });
    this.dispatchChannelUpdate(ch);
  }

  /** Someone deletes a channel or thread in the Discord client: gone for everyone, with its gateway event. */
  deleteChannel(ref: ChannelRef): void {
    this.removeChannel(this.resolveChannel(ref));
  }

  /** Messages of a channel deleted at once (a moderation bot's purge, a ban): one MESSAGE_DELETE_BULK. */
  bulkDelete(ref: ChannelRef, messages: readonly (SimMessage | string)[]): void {
    deleteInBulk(
      this,
      this.resolveChannel(ref),
      messages.map((m) => (typeof m === 'string' ? m : m.id)),
    );
  }

  /** Discord resolves a link in a message later: a MESSAGE_UPDATE with the ids and the embeds only. */
  unfurl(message: SimMessage, embed: Record<string, unknown> = { type: 'link', url: 'https://example.com' }): void {
    unfurlLink(this, message, embed);
  }

  /** Drops the bot's gateway connections (it should reconnect and identify again). */
  disconnectBot(): void {
    this.gateway.disconnectAll();
  }

  /**
   * Forgets what happened so far: messages (with their files), threads, REST calls, interactions,
   * typing and the gateway's replay log. Servers, channels, members and webhooks stay. For a long run
   * (the soak), whose own records would otherwise grow in the process it measures; call it only
   * between games, when nothing waits on an earlier interaction, message or thread.
   */
  forgetHistory(): void {
    for (const [id, channel] of this.world.channels) if (isThread(channel)) this.world.channels.delete(id);
    this.world.messages.clear();
    this.world.channelMessages.clear();
    this.world.typing.length = 0;
    this.calls.length = 0;
    this.interactions.all.clear();
    this.interactions.byToken.clear();
    for (const user of this.simUsers.values()) user.attachments.clear();
    this.gateway.forgetSent();
  }

  /** Registers cleanup run by close() (e.g. a discord.js client to destroy). */
  onClose(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.closers.splice(0).reverse()) await fn();
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts a simulator on a free loopback port. */
export async function startDiscordSim(options: SimOptions = {}): Promise<DiscordSim> {
  const world = new World();
  const ids = new Snowflakes();
  const botUserId = ids.next();
  world.users.set(botUserId, { id: botUserId, username: options.botName ?? 'Dramatis', globalName: null, bot: true, dmsOpen: true });
  const token = options.token ?? `${Buffer.from(botUserId).toString('base64')}.sim.${randomToken(27)}`;
  // The gateway and the simulator refer to each other (hence the annotations); its hooks run on connections, once `sim` exists.
  const gateway: FakeGateway = new FakeGateway({
    token,
    onIdentify: (session) => sim.identifyPayloads(session),
    resumeUrl: () => sim.gatewayUrl,
    onRequestMembers: (session, d) => {
      const guild = world.guilds.get(String(d.guild_id));
      if (!guild) return;
      const wanted: string[] | null = d.user_ids ? [d.user_ids].flat().map(String) : null;
      const query = String(d.query ?? '').toLowerCase();
      const members = [...guild.members.values()].filter((m) =>
        wanted ? wanted.includes(m.userId) : (world.users.get(m.userId)?.username ?? '').toLowerCase().startsWith(query),
      );
      gateway.send(session, 'GUILD_MEMBERS_CHUNK', {
        guild_id: guild.id,
        members: members.map((m) => apiMember(world, m)),
        chunk_index: 0,
        chunk_count: 1,
        not_found: wanted ? wanted.filter((id) => !guild.members.has(id)) : [],
        ...(d.nonce ? { nonce: d.nonce } : {}),
      });
    },
  });
  if (options.heartbeatIntervalMs) gateway.heartbeatIntervalMs = options.heartbeatIntervalMs;
  const sim: DiscordSim = new DiscordSim(world, gateway, token, botUserId, options);
  for (const g of options.guilds ?? [{ name: 'Test Server', channels: ['general'], members: [] }]) sim.addGuild(g);
  await sim.listen();
  return sim;
}

/** Text a human reads in a message: content, embed text, and component labels. */
export function messageText(m: SimMessage): string {
  const parts: string[] = [m.content];
  for (const e of m.embeds as any[]) {
    parts.push(e.author?.name, e.title, e.description, ...(e.fields ?? []).flatMap((f: any) => [f.name, f.value]), e.footer?.text);
  }
  const walk = (list: any[]) =>
    list.forEach((c) => {
      if (c?.label) parts.push(c.label);
      if (c?.content) parts.push(c.content);
      if (Array.isArray(c?.options)) parts.push(...c.options.map((o: any) => o.label));
      if (Array.isArray(c?.components)) walk(c.components);
      if (c?.accessory) walk([c.accessory]);
    });
  walk(m.components as any[]);
  return parts.filter((p) => typeof p === 'string' && p.length > 0).join('\n');
}

/** Whether a message is ephemeral. */
export function isEphemeral(m: SimMessage): boolean {
  return (m.flags & MessageFlags.Ephemeral) !== 0;
}
