import { ChannelType, ThreadAutoArchiveDuration } from 'discord.js';
import { NO_MENTIONS, boldName } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, personaCommand } from './context.ts';
import { personaOption } from './options.ts';
import { editorOn, namedPersona } from './preconditions.ts';
import { personaName } from '../../persona/persona.ts';

/** /persona edit: opens (or reopens) the editor chat on a persona: a private thread in a server, this DM in DMs. */
export const edit = personaCommand.subcommand({
  name: 'edit',
  definition: (s) =>
    s
      .setDescription('Chat with the editor agent about a persona you may edit (opens a private thread)')
      .addStringOption(personaOption('Which persona')),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [editorOn, namedPersona],
  run: async (i, { editor, persona, deps, reply }) => {
    const actor = actorOf(i);
    if (i.guildId === null) {
      const opened = await editor.open(persona.id, actor, { guildId: null, channelId: i.channelId, threadId: i.channelId });
      if (!opened.ok) return reply.privately(opened.error.message);
      const { displaced, movedFrom } = opened.value;
      // The DM talks to one persona at a time: say which one it no longer does.
      const before = displaced && (await deps.personas.get(actor, displaced.personaId));
      const instead = before?.ok ? ` instead of ${boldName(personaName(before.value))}` : '';
      await reply.answer({
        content: `Editing ${boldName(personaName(persona))} here${instead}: tell me what to change. \`/persona chat-clear\` starts over.`,
        allowedMentions: NO_MENTIONS,
      });
      if (movedFrom) await deps.chats?.tellMoved(i.client, movedFrom, 'our DMs');
      return;
    }
    // Permission first (no thread for someone who may not edit), then the thread, then the move to it:
    // the old thread keeps the conversation until the new one exists.
    const allowed = await editor.mayOpen(persona.id, actor);
    if (!allowed.ok) return reply.privately(allowed.error.message);
    const channel = i.channel;
    if (!channel || channel.type !== ChannelType.GuildText)
      return reply.privately('Use `/persona edit` in a text channel (the editor opens a private thread there) or in a DM with me.');
    const thread = await channel.threads
      .create({
        name: `✏️ ${personaName(persona)}`.slice(0, 100),
        type: ChannelType.PrivateThread,
        invitable: false,
        autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
      })
      .catch(() => null);
    if (!thread)
      return reply.privately(
        'I could not open a private thread here (I need Create Private Threads). Try another channel, or a DM with me.',
      );
    await thread.members.add(i.user.id);
    const bound = await editor.open(persona.id, actor, { guildId: i.guildId, channelId: i.channelId, threadId: thread.id });
    if (!bound.ok) return reply.privately(bound.error.message);
    await thread.send({
      content: `Editing ${boldName(personaName(persona))}. Tell me what to change — voice, tactics, parts, test situations — and I will do it and show you. \`/persona chat-history\` lists our turns; \`/persona chat-clear\` starts over.`,
      allowedMentions: NO_MENTIONS,
    });
    if (bound.value.movedFrom) await deps.chats?.tellMoved(i.client, bound.value.movedFrom, `<#${thread.id}>`);
    await reply.answer({ content: `The editor is open in <#${thread.id}>.`, allowedMentions: NO_MENTIONS });
  },
  autocomplete: personaAutocomplete('editable'),
});
