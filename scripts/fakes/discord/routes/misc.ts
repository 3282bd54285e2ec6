/** Gateway info, users and DMs, guilds and members, application commands. */
import { ChannelType } from 'discord.js';
import type { SimCore } from '../core.ts';
import { FormErrorCollector, invalidForm, unknownCommand, unknownGuild, unknownMember, unknownUser } from '../errors.ts';
import { noContent, ok, type Router } from '../http.ts';
import { validateCommands } from '../limits.ts';
import type { SimChannel, SimCommand } from '../model.ts';
import { isThread } from '../permissions.ts';
import { apiChannel, apiCommand, apiGuild, apiMember, apiRole, apiUser } from '../serialize.ts';
import { storeChannel } from '../world-building.ts';

export function miscRoutes(router: Router, core: SimCore, gatewayUrl: () => string, recommendedShards: number): void {
  const { world } = core;

  const gatewayBot = () =>
    ok({
      url: gatewayUrl(),
      shards: recommendedShards,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    });
  router.add('GET', '/gateway/bot', gatewayBot);
  router.add('GET', '/gateway', () => ok({ url: gatewayUrl() }), { auth: false });

  // ------------------------------------------------------------ users and DMs

  router.add('GET', '/users/@me', () => ok(apiUser(world, core.botUserId)));
  router.add('GET', '/users/:userId', ({ params }) => {
    if (!world.users.has(params.userId!)) throw unknownUser();
    return ok(apiUser(world, params.userId!));
  });

  router.add('POST', '/users/@me/channels', ({ body }) => {
    const userId = String(body?.recipient_id ?? '');
    if (!world.users.has(userId)) throw invalidForm(['recipient_id'], 'NUMBER_TYPE_COERCE', `Value "${userId}" is not snowflake.`);
    return ok(apiChannel(world, dmChannelFor(core, userId)));
  });

  // ------------------------------------------------------------ guilds

  const guildOr404 = (id: string) => {
    const g = world.guilds.get(id);
    if (!g) throw unknownGuild();
    return g;
  };

  router.add('GET', '/guilds/:guildId', ({ params }) => ok(apiGuild(world, guildOr404(params.guildId!), false)));
  router.add('GET', '/guilds/:guildId/channels', ({ params }) => {
    const g = guildOr404(params.guildId!);
    return ok(
      [...world.channels.values()].filter((c) => !c.deleted && c.guildId === g.id && !isThread(c)).map((c) => apiChannel(world, c)),
    );
  });
  router.add('GET', '/guilds/:guildId/threads/active', ({ params }) => {
    const g = guildOr404(params.guildId!);
    const threads = [...world.channels.values()].filter((c) => !c.deleted && c.guildId === g.id && isThread(c) && !c.threadMeta?.archived);
    return ok({ threads: threads.map((c) => apiChannel(world, c)), members: [] });
  });
  router.add('GET', '/guilds/:guildId/roles', ({ params }) => ok([...guildOr404(params.guildId!).roles.values()].map(apiRole)));
  router.add('GET', '/guilds/:guildId/members/:userId', ({ params }) => {
    const m = guildOr404(params.guildId!).members.get(params.userId!);
    if (!m) throw unknownMember();
    return ok(apiMember(world, m));
  });
  router.add('GET', '/guilds/:guildId/members', ({ params, query }) => {
    const g = guildOr404(params.guildId!);
    const limit = Math.min(Number(query.get('limit') ?? 1), 1000);
    const after = query.get('after') ?? '0';
    const members = [...g.members.values()]
      .filter((m) => BigInt(m.userId) > BigInt(after))
      .sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1));
    return ok(members.slice(0, limit).map((m) => apiMember(world, m)));
  });

  // ------------------------------------------------------------ application

  router.add('GET', '/applications/@me', () =>
    ok({
      id: core.appId,
      name: world.users.get(core.botUserId)?.username ?? 'bot',
      icon: null,
      description: '',
      bot_public: true,
      bot_require_code_grant: false,
      flags: 0,
      owner: apiUser(world, core.botUserId),
      team: null,
      verify_key: 'sim',
      bot: apiUser(world, core.botUserId),
    }),
  );

  const commandsOf = (guildId: string | null) =>
    [...world.commands.values()].filter((c) => c.guildId === guildId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));

  const toCommand = (raw: any, guildId: string | null, existing?: SimCommand): SimCommand => ({
    id: existing?.id ?? core.ids.next(),
    applicationId: core.appId,
    guildId,
    name: raw.name,
    description: raw.description ?? '',
    type: raw.type ?? 1,
    options: Array.isArray(raw.options) ? raw.options : [],
    defaultMemberPermissions: raw.default_member_permissions ?? null,
    dmPermission: raw.dm_permission ?? null,
    contexts: Array.isArray(raw.contexts) ? raw.contexts : null,
    integrationTypes: Array.isArray(raw.integration_types) ? raw.integration_types : null,
    nsfw: raw.nsfw ?? false,
    version: core.ids.next(),
    raw,
  });

  const bulkOverwrite = (guildId: string | null, body: unknown) => {
    const c = new FormErrorCollector();
    validateCommands(c, body);
    if (Array.isArray(body) && body.length > 100) c.add([], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
    c.throwIfAny();
    const before = commandsOf(guildId);
    for (const cmd of before) world.commands.delete(cmd.id);
    const list = (body as any[]).map((raw) => {
      const existing = before.find((b) => b.name === raw.name && b.type === (raw.type ?? 1));
      const cmd = toCommand(raw, guildId, existing);
      world.commands.set(cmd.id, cmd);
      return cmd;
    });
    core.changed();
    return ok(list.map(apiCommand));
  };

  for (const scope of ['global', 'guild'] as const) {
    const base = scope === 'global' ? '/applications/:appId/commands' : '/applications/:appId/guilds/:guildId/commands';
    const guildOf = (params: Record<string, string>) => {
      if (params.appId !== core.appId) throw invalidForm(['application_id'], 'APPLICATION_INVALID', 'Unknown application');
      if (scope === 'guild') {
        guildOr404(params.guildId!);
        return params.guildId!;
      }
      return null;
    };
    router.add('GET', base, ({ params }) => ok(commandsOf(guildOf(params)).map(apiCommand)));
    router.add('PUT', base, ({ params, body }) => bulkOverwrite(guildOf(params), body));
    router.add('POST', base, ({ params, body }) => {
      const guildId = guildOf(params);
      const c = new FormErrorCollector();
      validateCommands(c, [body]);
      c.throwIfAny();
      const existing = commandsOf(guildId).find((x) => x.name === body.name && x.type === (body.type ?? 1));
      const cmd = toCommand(body, guildId, existing);
      world.commands.set(cmd.id, cmd);
      core.changed();
      return { status: existing ? 200 : 201, body: apiCommand(cmd) };
    });
    router.add('GET', `${base}/:commandId`, ({ params }) => {
      const cmd = world.commands.get(params.commandId!);
      if (!cmd || cmd.guildId !== guildOf(params)) throw unknownCommand();
      return ok(apiCommand(cmd));
    });
    router.add('PATCH', `${base}/:commandId`, ({ params, body }) => {
      const cmd = world.commands.get(params.commandId!);
      if (!cmd || cmd.guildId !== guildOf(params)) throw unknownCommand();
      const merged = { ...cmd.raw, ...body };
      const c = new FormErrorCollector();
      validateCommands(c, [merged]);
      c.throwIfAny();
      const next = toCommand(merged, cmd.guildId, cmd);
      world.commands.set(cmd.id, next);
      core.changed();
      return ok(apiCommand(next));
    });
    router.add('DELETE', `${base}/:commandId`, ({ params }) => {
      const cmd = world.commands.get(params.commandId!);
      if (!cmd || cmd.guildId !== guildOf(params)) throw unknownCommand();
      world.commands.delete(cmd.id);
      core.changed();
      return noContent();
    });
  }
}

/** The DM channel between the bot and a user, created on first use (like POST /users/@me/channels). */
export function dmChannelFor(core: SimCore, userId: string): SimChannel {
  const existing = core.world.dmChannels.get(userId);
  if (existing) return core.world.channels.get(existing)!;
  const ch = storeChannel(core, { type: ChannelType.DM, guildId: null, name: null, topic: null, position: 0, recipientId: userId });
  core.world.dmChannels.set(userId, ch.id);
  return ch;
}
