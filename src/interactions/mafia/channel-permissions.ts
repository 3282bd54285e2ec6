import type { PermissionsBitField, PermissionsString } from 'discord.js';

/** Without these the game cannot be played in the channel at all: posts, the vote embed. */
const REQUIRED: readonly PermissionsString[] = ['ViewChannel', 'SendMessages', 'EmbedLinks'];

/** Without these the game still runs, with less: what each one gives the table. */
const WANTED: readonly (readonly [PermissionsString, string])[] = [
  ['ManageWebhooks', 'AI players speak under their own name and avatar'],
  ['CreatePrivateThreads', 'the Mafia get a private thread (else they chat by DM), and the dead a graveyard'],
  ['SendMessagesInThreads', 'the bot speaks in the Mafia thread'],
  ['ManageThreads', 'the bot adds the Mafia to their thread'],
  ['AttachFiles', "the director's cut comes with its files"],
  ['CreatePublicThreads', "the director's cut gets its thread"],
  ['ManageRoles', 'dead players are muted in the channel'],
];

/** "Manage Webhooks" from "ManageWebhooks". */
const label = (p: PermissionsString) => `**${p.replace(/([a-z])([A-Z])/g, '$1 $2')}**`;

/**
 * What the bot's permissions in a channel mean for a game there: a refusal when it cannot be
 * played, a note for the host when parts of it will be missing, or nothing.
 */
export function channelReadiness(have: Readonly<PermissionsBitField>): { refuse: string } | { note: string } | null {
  const missing = have.missing([...REQUIRED]);
  if (missing.length > 0) {
    return {
      refuse: `I cannot run a game in this channel: I need ${missing.map(label).join(', ')} here. Ask a server admin to grant them.`,
    };
  }
  const lacking = WANTED.filter(([p]) => !have.has(p));
  if (lacking.length === 0) return null;
  return {
    note: [
      'The lobby is open, but I lack some permissions in this channel; the game runs without what they give:',
      ...lacking.map(([p, gives]) => `- ${label(p)}: ${gives}`),
    ].join('\n'),
  };
}
