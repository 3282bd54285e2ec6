import { EmbedBuilder } from 'discord.js';
import type { PersonaSummary } from '../../db/persona-store.ts';
import { COLOURS, NO_MENTIONS, cut, plainName } from '../../discord/presenters/format.ts';
import { actorOf, personaCommand } from './context.ts';

/** Per page: three sections of names stay well inside an embed's 6,000 characters. */
const LIST_PAGE_SIZE = 30;

const SECTIONS = [
  { title: 'Yours', has: (s: PersonaSummary) => !s.builtIn && s.scope.kind === 'private' },
  { title: 'This server', has: (s: PersonaSummary) => !s.builtIn && s.scope.kind === 'server' },
  { title: 'Built-in (duplicate one to change it)', has: (s: PersonaSummary) => s.builtIn || s.scope.kind === 'everyone' },
] as const;

/** /persona list [page]: the personas the person can use, in sections. */
export const list = personaCommand.subcommand({
  name: 'list',
  definition: (s) =>
    s
      .setDescription('The personas you can use: yours, this server’s, the built-in ones')
      .addIntegerOption((o) => o.setName('page').setDescription('Page number').setMinValue(1).setMaxValue(1000)),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [],
  run: async (i, { deps, reply }) => {
    const all = await deps.personas.list(actorOf(i));
    // Sections in a fixed order, so pages follow each other without gaps or repeats.
    const ordered = SECTIONS.flatMap((section) => all.filter(section.has).map((s) => ({ section: section.title, s })));
    const pages = Math.max(1, Math.ceil(ordered.length / LIST_PAGE_SIZE));
    const page = i.options.getInteger('page') ?? 1;
    if (page > pages) return reply.privately(`There ${pages === 1 ? 'is only 1 page' : `are only ${pages} pages`} of personas.`);
    const shown = ordered.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE);
    const embed = new EmbedBuilder().setColor(COLOURS.info).setTitle('Personas you can use');
    if (ordered.length === 0) embed.setDescription('None yet. Create one with `/persona create`.');
    for (const section of SECTIONS) {
      const names = shown.filter((x) => x.section === section.title).map((x) => plainName(x.s.name));
      if (names.length > 0) embed.addFields({ name: section.title, value: cut(names.join('\n'), 1024) });
    }
    embed.setFooter({
      text: `${ordered.length} persona${ordered.length === 1 ? '' : 's'} · page ${page} of ${pages}${page < pages ? ` · next: /persona list page:${page + 1}` : ''}`,
    });
    await reply.answer({ embeds: [embed], allowedMentions: NO_MENTIONS });
  },
});
