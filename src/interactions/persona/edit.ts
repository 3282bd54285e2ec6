import { ChannelType, MessageFlags, ThreadAutoArchiveDuration, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, storeOf, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';
import { personaName } from '../../persona/persona.ts';

export const NO_EDITOR = 'The persona editor is not available on this bot.';

/** Opens (or reopens) the editor chat on a persona: a private thread in a server, this DM in DMs. */
async function edit(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = await storeOf(i, deps);
  if (!store) return;
  if (!deps.editor) return refuse(i, NO_EDITOR);
  const actor = actorOf(i);
  const persona = await findPersona(store, actor, i.options.getString('persona', true));
  if (!persona.ok) return refuse(i, persona.error);
  await i.deferReply({ flags: MessageFlags.Ephemeral });
  if (i.guildId === null) {
    const opened = await deps.editor.open(persona.value.id, actor, { guildId: null, channelId: i.channelId, threadId: i.channelId });
    if (!opened.ok) return refuse(i, opened.error.message);
    const { displaced, movedFrom } = opened.value;
    // The DM talks to one persona at a time: say which one it no longer does.
    const before = displaced && (await store.get(actor, displaced.personaId));
    const instead = before?.ok ? ` instead of **${personaName(before.value)}**` : '';
    await i.editReply({
      content: `Editing **${personaName(persona.value)}** here${instead}: tell me what to change. \`/persona chat-clear\` starts over.`,
      allowedMentions: NO_MENTIONS,
    });
    if (movedFrom) await deps.chats?.tellMoved(i.client, movedFrom, 'our DMs');
    return;
  }
  // Permission first (no thread for someone who may not edit), then the thread, then the move to it:
  // the old thread keeps the conversation until the new one exists.
  const allowed = await deps.editor.mayOpen(persona.value.id, actor);
  if (!allowed.ok) return refuse(i, allowed.error.message);
  const channel = i.channel;
  if (!channel || channel.type !== ChannelType.GuildText)
    return refuse(i, 'Use `/persona edit` in a text channel (the editor opens a private thread there) or in a DM with me.');
  const thread = await channel.threads
    .create({
      name: `✏️ ${personaName(persona.value)}`.slice(0, 100),
      type: ChannelType.PrivateThread,
      invitable: false,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
    })
    .catch(() => null);
  if (!thread)
    return refuse(i, 'I could not open a private thread here (I need Create Private Threads). Try another channel, or a DM with me.');
  await thread.members.add(i.user.id);
  const bound = await deps.editor.open(persona.value.id, actor, { guildId: i.guildId, channelId: i.channelId, threadId: thread.id });
  if (!bound.ok) return refuse(i, bound.error.message);
  await thread.send({
    content: `Editing **${personaName(persona.value)}**. Tell me what to change — voice, tactics, parts, test situations — and I will do it and show you. \`/persona chat-history\` lists our turns; \`/persona chat-clear\` starts over.`,
    allowedMentions: NO_MENTIONS,
  });
  if (bound.value.movedFrom) await deps.chats?.tellMoved(i.client, bound.value.movedFrom, `<#${thread.id}>`);
  await i.editReply({ content: `The editor is open in <#${thread.id}>.`, allowedMentions: NO_MENTIONS });
}

export function registerEdit(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'edit', (i) => edit(i, deps));
  router.onAutocomplete(PERSONA, 'edit', personaAutocomplete(deps, 'editable'));
}
