/** Channel webhooks (create/list/delete/execute) and interaction webhooks (callbacks, @original, follow-ups). */
import { ChannelType, MessageFlags } from 'discord.js';
import type { SimCore } from '../core.ts';
import { FormErrorCollector, invalidForm, maxWebhooks, unknownChannel, unknownMessage, unknownWebhook } from '../errors.ts';
import { noContent, ok, type RouteContext, type Router } from '../http.ts';
import { randomToken } from '../ids.ts';
import type { Interactions } from '../interactions.ts';
import { validateWebhookName } from '../limits.ts';
import type { SimWebhook } from '../model.ts';
import { isThread, P } from '../permissions.ts';
import { apiMessage, apiWebhook } from '../serialize.ts';

export function webhookRoutes(router: Router, core: SimCore, interactions: Interactions): void {
  const { world } = core;

  const live = (id: string): SimWebhook => {
    const w = world.webhooks.get(id);
    if (!w || w.deleted) throw unknownWebhook();
    return w;
  };
  const withToken = (id: string, token: string): SimWebhook => {
    const w = live(id);
    if (w.token !== token) throw unknownWebhook();
    return w;
  };
  const webhooksUpdate = (w: SimWebhook) => {
    core.gateway.dispatch('WEBHOOKS_UPDATE', { guild_id: w.guildId, channel_id: w.channelId }, 1 << 5 /* GuildWebhooks */);
    core.changed();
  };
  const isInteraction = (id: string, token: string) => id === core.appId && interactions.byToken.has(token);

  router.add('POST', '/channels/:channelId/webhooks', ({ params, body }) => {
    const ch = core.botChannel(params.channelId!);
    if (ch.type !== ChannelType.GuildText)
      throw invalidForm(['channel_id'], 'CHANNEL_TYPE_INVALID', 'Webhooks can only be created in text channels');
    core.requireBot(ch, P.ManageWebhooks);
    const c = new FormErrorCollector();
    validateWebhookName(c, ['name'], body?.name);
    c.throwIfAny();
    const existing = [...world.webhooks.values()].filter((w) => !w.deleted && w.channelId === ch.id);
    if (existing.length >= 15) throw maxWebhooks();
    const w: SimWebhook = {
      id: core.ids.next(),
      token: randomToken(68),
      guildId: ch.guildId!,
      channelId: ch.id,
      name: body.name,
      avatar: typeof body.avatar === 'string' ? 'a_sim_avatar_hash' : null,
      creatorId: core.botUserId,
      applicationId: core.appId,
      deleted: false,
    };
    world.webhooks.set(w.id, w);
    webhooksUpdate(w);
    return ok(apiWebhook(world, w, true));
  });

  router.add('GET', '/channels/:channelId/webhooks', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    core.requireBot(ch, P.ManageWebhooks);
    const list = [...world.webhooks.values()].filter((w) => !w.deleted && w.channelId === ch.id);
    // Tokens only for webhooks the application made.
    return ok(list.map((w) => apiWebhook(world, w, w.applicationId === core.appId)));
  });

  router.add('GET', '/guilds/:guildId/webhooks', ({ params }) => {
    const list = [...world.webhooks.values()].filter((w) => !w.deleted && w.guildId === params.guildId);
    return ok(list.map((w) => apiWebhook(world, w, w.applicationId === core.appId)));
  });

  router.add('GET', '/webhooks/:webhookId', ({ params }) => ok(apiWebhook(world, live(params.webhookId!), true)));

  router.add('PATCH', '/webhooks/:webhookId', ({ params, body }) => {
    const w = live(params.webhookId!);
    if (body?.name !== undefined) {
      const c = new FormErrorCollector();
      validateWebhookName(c, ['name'], body.name);
      c.throwIfAny();
      w.name = body.name;
    }
    if (body?.channel_id) {
      const ch = world.channel(String(body.channel_id));
      if (!ch || ch.guildId !== w.guildId) throw unknownChannel();
      w.channelId = ch.id;
    }
    webhooksUpdate(w);
    return ok(apiWebhook(world, w, true));
  });

  router.add('DELETE', '/webhooks/:webhookId', ({ params }) => {
    const w = live(params.webhookId!);
    const ch = world.channel(w.channelId);
    if (ch) core.requireBot(ch, P.ManageWebhooks);
    w.deleted = true;
    webhooksUpdate(w);
    return noContent();
  });

  router.add(
    'GET',
    '/webhooks/:webhookId/:token',
    ({ params }) => ok(apiWebhook(world, withToken(params.webhookId!, params.token!), true)),
    { auth: false },
  );

  router.add(
    'DELETE',
    '/webhooks/:webhookId/:token',
    ({ params }) => {
      const w = withToken(params.webhookId!, params.token!);
      w.deleted = true;
      webhooksUpdate(w);
      return noContent();
    },
    { auth: false },
  );

  // ------------------------------------------------------------ execute (channel webhooks and follow-ups)

  router.add(
    'POST',
    '/webhooks/:webhookId/:token',
    ({ params, body, files, query }) => {
      const b = core.requireMessageBody(body);
      if (isInteraction(params.webhookId!, params.token!)) {
        const i = interactions.fromWebhook(params.webhookId!, params.token!);
        return ok(apiMessage(world, interactions.followUp(i, b, files)));
      }
      const w = withToken(params.webhookId!, params.token!);
      let channelId = w.channelId;
      const threadId = query.get('thread_id');
      if (threadId) {
        const thread = world.channel(threadId);
        if (!thread || !isThread(thread) || thread.parentId !== w.channelId) throw unknownChannel();
        channelId = thread.id;
      }
      if (b.flags !== undefined && (b.flags & MessageFlags.Ephemeral) !== 0) {
        throw invalidForm(['flags'], 'MESSAGE_FLAGS_INVALID', 'Webhook messages cannot be ephemeral');
      }
      const msg = core.createMessage({
        channelId,
        authorId: w.id,
        body: b,
        files,
        webhook: {
          id: w.id,
          name: typeof b.username === 'string' ? b.username : w.name,
          avatarUrl: typeof b.avatar_url === 'string' ? b.avatar_url : null,
        },
      });
      return query.get('wait') === 'true' ? ok(apiMessage(world, msg)) : noContent();
    },
    { auth: false },
  );

  const webhookMessage = ({ params }: RouteContext) => {
    if (isInteraction(params.webhookId!, params.token!)) {
      const i = interactions.fromWebhook(params.webhookId!, params.token!);
      return interactions.target(i, params.messageId!);
    }
    const w = withToken(params.webhookId!, params.token!);
    const m = world.messages.get(params.messageId!);
    if (!m || m.deleted || m.webhookId !== w.id) throw unknownMessage();
    return m;
  };

  router.add('GET', '/webhooks/:webhookId/:token/messages/:messageId', (ctx) => ok(apiMessage(world, webhookMessage(ctx))), {
    auth: false,
  });

  router.add(
    'PATCH',
    '/webhooks/:webhookId/:token/messages/:messageId',
    (ctx) => {
      const m = webhookMessage(ctx);
      return ok(apiMessage(world, core.editMessage(m, core.requireMessageBody(ctx.body), ctx.files)));
    },
    { auth: false },
  );

  router.add(
    'DELETE',
    '/webhooks/:webhookId/:token/messages/:messageId',
    (ctx) => {
      core.deleteMessage(webhookMessage(ctx));
      return noContent();
    },
    { auth: false },
  );

  // ------------------------------------------------------------ interaction callbacks

  router.add(
    'POST',
    '/interactions/:interactionId/:token/callback',
    ({ params, body, files, query }) => {
      const result = interactions.callback(params.interactionId!, params.token!, body, files, query.get('with_response') === 'true');
      return result === undefined ? noContent() : ok(result);
    },
    { auth: false },
  );
}
