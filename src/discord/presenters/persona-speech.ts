import { plainText } from '../../plain-text.ts';
import type { WebhookMessageCreateOptions } from 'discord.js';
import { cut, MAX_CONTENT, NO_MENTIONS } from './format.ts';

/** Webhook names: 1–80 characters, and Discord refuses names containing "discord" or "clyde". */
export function webhookName(name: string): string {
  const clean = name
    .replace(/discord/gi, 'd1scord')
    .replace(/clyde/gi, 'c1yde')
    .replace(/\s+/g, ' ')
    .trim();
  return (clean || 'AI player').slice(0, 80);
}

/** An AI seat's speech as it goes out through the channel's webhook, under its own name and avatar. */
export function personaSpeech(name: string, text: string, avatarUrl: string | null, threadId?: string): WebhookMessageCreateOptions {
  return {
    username: webhookName(name),
    ...(avatarUrl && { avatarURL: avatarUrl }),
    content: cut(plainText(text), MAX_CONTENT),
    allowedMentions: NO_MENTIONS,
    ...(threadId && { threadId }),
  };
}

/** The same speech posted by the bot itself, where it may not use webhooks: the persona's name in bold leads it. */
export function personaSpeechAsBot(name: string, text: string): { content: string; allowedMentions: typeof NO_MENTIONS } {
  return { content: cut(`**${plainText(name)}:** ${plainText(text)}`, MAX_CONTENT), allowedMentions: NO_MENTIONS };
}
