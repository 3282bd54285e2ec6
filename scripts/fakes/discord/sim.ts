/** startDiscordSim: the world, the REST server and the gateway on one loopback port, plus the assertion helpers. */
import { SimCore } from './core.ts';
import type { Fault } from './faults.ts';
import { FakeGateway, type GatewaySession } from './gateway.ts';
import type { Held, HoldSpec } from './holds.ts';
import { Router } from './http.ts';
import { randomToken, Snowflakes } from './ids.ts';
import { replayInteraction, type InteractionHandle } from './handle.ts';
import { kickBot } from './kick.ts';
import { Interactions, type SimInteraction } from './interactions.ts';
import { type RestCall, type SimChannel, type SimGuild, type SimMessage, type SimWebhook, World } from './model.ts';
import { channelPermissions, isThread } from './permissions.ts';
import { deleteInBulk, unfurlLink } from './message-changes.ts';
import { channelRoutes } from './routes/channels.ts';
import { miscRoutes } from './routes/misc.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { apiUser } from './serialize.ts';
import { SimServer } from './sim-server.ts';
import { type ChannelRef, SimUser } from './users.ts';
import {
  addChannel,
  addGuild,
  addMember,
  identifyPayloads,
  membersChunk,
  type ChannelSpec,
  type GuildSpec,
  type MemberSpec,
} from './world-building.ts';

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

export class DiscordSim extends SimCore {
  readonly interactions: Interactions;
  readonly token: string;
  readonly router = new Router();
  private readonly server: SimServer;
  private readonly usersByName = new Map<string, SimUser>();
  private readonly simUsers = new Map<string, SimUser>();
  private readonly closers: (() => Promise<void> | void)[] = [];
  readonly waitTimeoutMs: number;

  constructor(world: World, gateway: FakeGateway, token: string, botUserId: string, options: SimOptions) {
    super(world, gateway, botUserId, botUserId, () => `http://127.0.0.1:${this.server.port}`);
    this.token = token;
    this.server = new SimServer({
      token,
      router: this.router,
      gateway,
      calls: this.calls,
      changed: () => this.changed(),
      attachment: (id) => this.findAttachment(id),
    });
    this.interactions = new Interactions(this);
    this.interactions.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? 5000;
    miscRoutes(this.router, this, () => this.gatewayUrl, options.recommendedShards ?? 1);
    channelRoutes(this.router, this);
    webhookRoutes(this.router, this, this.interactions);
  }

  /** TCP connections REST requests came on (a client that keeps its connections opens few). */
  get restConnections(): number {
    return this.server.restConnections;
  }

  /** `rest.api` for discord.js: `new Client({ rest: { api: sim.restApi } })`. */
  get restApi(): string {
    return `http://127.0.0.1:${this.server.port}/api`;
  }
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.server.port}/gateway`;
  }
  get botUser(): Record<string, unknown> {
    return apiUser(this.world, this.botUserId);
  }

  listen(): Promise<void> {
    return this.server.listen();
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
    return replayInteraction(this, this.interactions, original, this.waitTimeoutMs);
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
    return addGuild(this, spec, (guild, member) => this.addMember(guild, member));
  }

  addMember(guild: SimGuild, spec: MemberSpec): SimUser {
    const user = this.ensureUser(spec.name, spec.dmsOpen ?? true);
    addMember(this, guild, spec, user.id);
    return user;
  }

  addChannel(guild: SimGuild, spec: ChannelSpec): SimChannel {
    return addChannel(this, guild, spec);
  }

  /** READY and the GUILD_CREATEs for one session: a sharded one gets only its own guilds. */
  identifyPayloads(session: Pick<GatewaySession, 'shard'>) {
    return identifyPayloads(this, session);
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
    return this.server.faults.add(fault);
  }

  /** Keeps matching REST calls waiting, unanswered, until `release()`: a slow Discord (start-up's command registration …). */
  hold(spec: HoldSpec): Held {
    return this.server.holds.add(spec);
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
    await this.server.close();
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
      const chunk = membersChunk(world, d);
      if (chunk) gateway.send(session, 'GUILD_MEMBERS_CHUNK', chunk);
    },
  });
  if (options.heartbeatIntervalMs) gateway.heartbeatIntervalMs = options.heartbeatIntervalMs;
  const sim: DiscordSim = new DiscordSim(world, gateway, token, botUserId, options);
  for (const g of options.guilds ?? [{ name: 'Test Server', channels: ['general'], members: [] }]) sim.addGuild(g);
  await sim.listen();
  return sim;
}
