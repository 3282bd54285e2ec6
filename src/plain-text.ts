import { escapeMarkdown } from 'discord.js';

/**
 * What people and models wrote, shown as they typed it wherever Markdown renders (Discord, the
 * director's cut file): no bold, links under other words, headings, lists or quotes. A masked link
 * must never render under a persona's name and avatar.
 */
export function plainText(written: string): string {
  // discord.js leaves block quotes and subtext alone.
  return escapeMarkdown(written, { heading: true, bulletedList: true, numberedList: true, maskedLink: true }).replace(
    /^(\s*)(>|-#)/gm,
    '$1\\$2',
  );
}
