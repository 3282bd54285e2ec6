/**
 * Messages changing after they were sent, as Discord tells a bot: a person's edit (MESSAGE_UPDATE
 * with the whole message), a link unfurled later (MESSAGE_UPDATE with only the fields that changed),
 * a deletion (MESSAGE_DELETE: ids only) and a purge (MESSAGE_DELETE_BULK: ids only). Each goes to
 * the sessions whose intents take it, GuildMessages in a server and DirectMessages in a DM; without
 * MessageContent an edit arrives with its content empty, as Discord sends it.
 */
import { ChannelType, GatewayIntentBits } from 'discord.js';
import type { SimCore } from './core.ts';
import { invalidForm, SimUserError } from './errors.ts';
import { codePoints, LIMITS } from './limits.ts';
import type { SimChannel, SimMessage } from './model.ts';
import { channelPermissions, has, P } from './permissions.ts';

function messageIntent(ch: SimChannel | undefined): number {
  return ch?.guildId ? GatewayIntentBits.GuildMessages : GatewayIntentBits.DirectMessages;
}

function live(msg: SimMessage): void {
  if (msg.deleted) throw new SimUserError('That message was deleted');
  if (msg.visibleTo) throw new SimUserError('Ephemeral messages cannot be edited or deleted by people');
}

/** A person edits their own message: Discord sends the whole message, `edited_timestamp` set. */
export function editOwnMessage(
  core: SimCore,
  userId: string,
  msg: SimMessage,
  text: string,
  options: { nitro?: boolean } = {},
): SimMessage {
  live(msg);
  if (msg.authorId !== userId) throw new SimUserError('People can only edit their own messages');
  const limit = options.nitro ? LIMITS.content * 2 : LIMITS.content;
  if (codePoints(text) > limit) throw new SimUserError(`A message is at most ${limit} characters`);
  // Discord's client offers to delete a message edited down to nothing.
  if (!text.trim() && msg.attachments.length === 0) throw new SimUserError('An edit cannot leave a message empty');
  return core.editMessage(msg, { content: text }, [], { trusted: true });
}

/**
 * Discord's own later change of a message (a link's embed resolved): MESSAGE_UPDATE carries the ids
 * and the changed fields only, no author and no content, as it long did and still may.
 */
export function unfurlLink(core: SimCore, msg: SimMessage, embed: Record<string, unknown>): void {
  live(msg);
  msg.embeds = [...msg.embeds, embed];
  const ch = core.world.channels.get(msg.channelId);
  const d = { id: msg.id, channel_id: msg.channelId, ...(msg.guildId ? { guild_id: msg.guildId } : {}), embeds: msg.embeds };
  core.dispatchToChannelViewers('MESSAGE_UPDATE', d, ch, messageIntent(ch));
  core.changed();
}

/** A person deletes a message: their own anywhere, another's only with Manage Messages (never in a DM). */
export function deleteAsUser(core: SimCore, userId: string, msg: SimMessage): void {
  live(msg);
  const ch = core.channelOr404(msg.channelId);
  if (msg.authorId !== userId) {
    if (ch.type === ChannelType.DM) throw new SimUserError('Nobody deletes the other side of a DM');
    if (!has(channelPermissions(core.world, ch, userId), P.ManageMessages)) {
      throw new SimUserError('Deleting the messages of others needs Manage Messages');
    }
  }
  core.deleteMessage(msg);
}

/**
 * Messages of one channel deleted at once (a moderation bot's purge, a ban that deletes the
 * member's recent messages): one MESSAGE_DELETE_BULK with their ids, as Discord sends it. The REST
 * route takes 2–100 ids, as Discord's does; ids not in the channel are skipped.
 */
export function deleteInBulk(core: SimCore, ch: SimChannel, ids: readonly string[]): void {
  if (ids.length < 2 || ids.length > 100) throw invalidForm(['messages'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.');
  const gone: string[] = [];
  for (const id of ids) {
    const m = core.world.messages.get(id);
    if (!m || m.channelId !== ch.id || m.deleted || m.visibleTo) continue;
    m.deleted = true;
    gone.push(m.id);
  }
  if (gone.length > 0) {
    const d = { ids: gone, channel_id: ch.id, ...(ch.guildId ? { guild_id: ch.guildId } : {}) };
    core.dispatchToChannelViewers('MESSAGE_DELETE_BULK', d, ch, messageIntent(ch));
  }
  core.changed();
}
