import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { escapeMarkdown } from 'discord.js';
import { z } from 'zod';
import { messageText, type OptionValue } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { appended, tidy } from './shared-world.ts';

/** One world for the file: each test's personas are deleted and its games ended after it. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const persona = (user: string, subcommand: string, options: Record<string, OptionValue> = {}, where = 'game') =>
  w.sim.user(user).slash(where, 'persona', { subcommand, options });

const ADA =
  'Ada Lovelace was a brilliant English mathematician, curious and proud. She wrote the first algorithm for the Analytical Engine. ' +
  'Friends found her witty and imaginative; she once said "That brain of mine is something more than merely mortal" and meant it.';

/** What the tests read of a modal's rows: the text input each holds. */
const modalRows = z.array(z.object({ components: z.tuple([z.object({ max_length: z.number() })], z.unknown()) }));

/** Every persona row, to assert a refusal changed nothing. */
async function rows(): Promise<{ id: string; name: string; version: number }[]> {
  return w.db.prisma.persona.findMany({ select: { id: true, name: true, version: true }, orderBy: { id: 'asc' } });
}

async function idOf(name: string): Promise<string> {
  const row = await w.db.prisma.persona.findFirst({ where: { name }, select: { id: true } });
  if (!row) throw new Error(`no persona ${name}`);
  return row.id;
}

describe('/persona create', () => {
  it('GIVEN no language model WHEN alice creates a persona from a name and text THEN it is built offline from the biography and shown to her alone', async () => {
    const reply = await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    expect(messageText(reply)).toMatch(/Created \*\*Ada Lovelace\*\* \(built offline/);
    const ada = await w.personas.getByName({ userId: w.sim.user('alice').id, guildId: null, canManageServer: false }, 'Ada Lovelace');
    expect(ada.ok).toBe(true);
    if (!ada.ok) return;
    expect(ada.value.scope).toEqual({ kind: 'private' });
    expect(ada.value.profile.identity.background).toMatch(/^Ada Lovelace was a brilliant English mathematician/);
    expect(ada.value.profile.identity.coreTraits).toEqual(expect.arrayContaining(['brilliant', 'curious', 'proud', 'witty']));
    expect(ada.value.profile.playStyle.signaturePhrases).toEqual(['That brain of mine is something more than merely mortal']);
    // Bob cannot see alice's private persona.
    expect(messageText(await persona('bob', 'show', { persona: 'Ada Lovelace' }).ephemeral())).toMatch(/no persona "Ada Lovelace"/);
  });

  it('GIVEN no text and no file WHEN alice creates THEN a modal spreads the biography over five inputs, joined back in order', async () => {
    const handle = persona('alice', 'create', { name: 'Long Ada' });
    const modal = await handle.modal();
    expect(modal.components).toHaveLength(5);
    expect(modalRows.parse(modal.components).map((row) => row.components[0].max_length)).toEqual([4000, 4000, 4000, 4000, 4000]);
    const first = `${ADA} ${'She computed Bernoulli numbers by hand. '.repeat(85)}`.slice(0, 4000);
    const second = 'Her second part begins here. She loved horses and gambling.';
    const reply = await w.sim.user('alice').submitModal(modal.custom_id, { bio1: first, bio2: second }).ephemeral();
    expect(messageText(reply)).toMatch(/Created \*\*Long Ada\*\*/);
    const stored = await w.db.prisma.persona.findFirst({ where: { name: 'Long Ada' }, include: { parts: { include: { part: true } } } });
    const backstory = stored!.parts[0]!.part.content;
    expect(backstory.startsWith('Ada Lovelace was a brilliant')).toBe(true);
    expect(backstory.length).toBeGreaterThan(1000);
  });

  it('GIVEN a biography file WHEN alice creates a server persona from it THEN it is built from the file; a non-text file, text and file together, or server scope without Manage Server are refused', async () => {
    const before = await rows();
    expect(
      messageText(
        await persona('alice', 'create', { name: 'Pic', file: { filename: 'ada.png', content: Buffer.from([1, 2, 3]) } }).ephemeral(),
      ),
    ).toMatch(/not a text file: attach the biography as \.txt or \.md/);
    expect(
      messageText(await persona('alice', 'create', { name: 'Both', text: ADA, file: { filename: 'ada.txt', content: ADA } }).ephemeral()),
    ).toMatch(/as text or as a file, not both/);
    const forbidden = await persona('bob', 'create', { name: 'Bobs Ada', text: ADA, scope: 'server' }).ephemeral();
    expect(messageText(forbidden)).toMatch(/Nothing was created: Adding a server persona needs the Manage Server permission/);
    // What bob typed comes back to him.
    expect(forbidden.attachments[0]?.data.toString('utf8')).toBe(ADA);
    expect(await rows()).toEqual(before);

    const made = await persona('mod', 'create', {
      name: 'Server Ada',
      file: { filename: 'ada.md', content: ADA },
      scope: 'server',
    }).ephemeral();
    expect(messageText(made)).toMatch(/Created \*\*Server Ada\*\*/);
    // Everyone in the server sees it now.
    expect(messageText(await persona('bob', 'show', { persona: 'Server Ada' }).ephemeral())).toContain('this server');
  });

  it('GIVEN an oversize file or a taken name WHEN alice creates THEN she is told why and nothing is stored', async () => {
    await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    const before = await rows();
    const huge = 'x '.repeat(250_000);
    expect(
      messageText(await persona('alice', 'create', { name: 'Huge', file: { filename: 'huge.txt', content: huge } }).ephemeral()),
    ).toMatch(/huge\.txt is 489 KiB; the limit is 391 KiB/);
    expect(
      messageText(
        await persona('alice', 'create', { name: 'Huge', file: { filename: 'big.txt', content: 'word '.repeat(21_000) } }).ephemeral(),
      ),
    ).toMatch(/has 104,999 characters; the limit is 100,000/);
    expect(messageText(await persona('alice', 'create', { name: 'ada lovelace', text: ADA }).ephemeral())).toMatch(
      /named "ada lovelace" already exists here/,
    );
    expect(await rows()).toEqual(before);
  });
});

describe('/persona in DMs', () => {
  it('GIVEN a DM with the bot WHEN bob creates and lists THEN his private persona lives there too; a server persona is refused', async () => {
    const before = await rows();
    expect(messageText(await persona('bob', 'create', { name: 'Bobs Ada', text: ADA, scope: 'server' }, 'dm').ephemeral())).toBe(
      'Server personas are made in a server: use this command there, not in DMs.',
    );
    expect(await rows()).toEqual(before);
    expect(messageText(await persona('bob', 'create', { name: 'Bobs Ada', text: ADA }, 'dm').ephemeral())).toMatch(
      /Created \*\*Bobs Ada\*\*/,
    );
    const list = messageText(await persona('bob', 'list', {}, 'dm').ephemeral());
    expect(list).toContain('Bobs Ada');
    expect(list).toContain('Sherlock Holmes');
  });
});

describe('/persona show, list and autocomplete', () => {
  it('GIVEN the built-in personas WHEN bob shows Sherlock Holmes THEN the embed has his voice, phrases and tactics per role', async () => {
    const text = messageText(await persona('bob', 'show', { persona: 'Sherlock Holmes' }).ephemeral());
    expect(text).toContain('The consulting detective of 221B Baker Street');
    expect(text).toContain('• Elementary.');
    expect(text).toContain('As Detective');
    expect(text).toMatch(/built-in \(read-only; duplicate it to change it\) · \d+ prompt words/);
  });

  it('GIVEN personas of every scope WHEN alice lists THEN she sees hers, the server’s and the built-in ones in sections, never bob’s', async () => {
    await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    await persona('bob', 'create', { name: 'Bobs Secret', text: ADA }).ephemeral();
    await persona('mod', 'create', { name: 'Club Mascot', text: ADA, scope: 'server' }).ephemeral();
    const list = await persona('alice', 'list').ephemeral();
    const fields = (list.embeds[0] as { fields: { name: string; value: string }[] }).fields;
    expect(fields.map((f) => f.name)).toEqual(['Yours', 'This server', 'Built-in (duplicate one to change it)']);
    expect(fields[0]!.value).toBe('Ada Lovelace');
    expect(fields[1]!.value).toBe('Club Mascot');
    expect(fields[2]!.value).toContain('Sherlock Holmes');
    expect(messageText(list)).not.toContain('Bobs Secret');
    expect(messageText(list)).toMatch(/10 personas · page 1 of 1/);
    expect(messageText(await persona('alice', 'list', { page: 2 }).ephemeral())).toBe('There is only 1 page of personas.');
  });

  it('GIVEN many personas WHEN alice lists THEN pages keep the embed within Discord’s limits and point to the next page', async () => {
    const failed = appended(() => w.sim.failedRequests());
    for (let n = 1; n <= 25; n++) {
      const made = await w.personas.duplicate(
        { userId: w.sim.user('alice').id, guildId: null, canManageServer: false },
        await idOf('Cleopatra'),
        {
          scope: { kind: 'private' },
          name: `Cleo ${String(n).padStart(2, '0')}`,
        },
      );
      expect(made.ok).toBe(true);
    }
    const first = await persona('alice', 'list').ephemeral();
    expect(messageText(first)).toMatch(/33 personas · page 1 of 2 · next: \/persona list page:2/);
    const second = messageText(await persona('alice', 'list', { page: 2 }).ephemeral());
    expect(second).toContain('Sherlock Holmes');
    expect(second).not.toContain('Cleo 01');
    expect(failed()).toEqual([]);
  });

  it('GIVEN bob’s private persona and the built-ins WHEN alice autocompletes delete THEN only what she may delete is offered; show offers what she can see', async () => {
    await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    await persona('bob', 'create', { name: 'Ada Bob', text: ADA }).ephemeral();
    const del = await w.sim
      .user('alice')
      .autocomplete('game', 'persona', { subcommand: 'delete', options: { persona: 'Ada' }, focused: 'persona' })
      .choices();
    expect(del.map((c) => c.name)).toEqual(['Ada Lovelace · yours']);
    const show = await w.sim
      .user('alice')
      .autocomplete('game', 'persona', { subcommand: 'show', options: { persona: '' }, focused: 'persona' })
      .choices();
    expect(show.map((c) => c.name)).toContain('Sherlock Holmes · built-in');
    expect(show.map((c) => c.name)).not.toContain('Ada Bob · yours');
  });
});

describe('/persona duplicate and delete', () => {
  it('GIVEN a built-in persona WHEN alice duplicates it THEN she owns an editable copy, and may delete it after confirming', async () => {
    const copied = await persona('alice', 'duplicate', { persona: await idOf('Miss Marple') }).ephemeral();
    expect(messageText(copied)).toBe('Copied Miss Marple to **Miss Marple (copy)** as your private persona. It is yours to change.');
    const ask = await persona('alice', 'delete', { persona: 'Miss Marple (copy)' }).ephemeral();
    expect(messageText(ask)).toMatch(/Delete \*\*Miss Marple \(copy\)\*\* for good\?/);
    const kept = await w.sim
      .user('alice')
      .click(ask, `persona-delete:no:${await idOf('Miss Marple (copy)')}`)
      .updated();
    expect(messageText(kept)).toBe('Kept; nothing was deleted.');
    const again = await persona('alice', 'delete', { persona: 'Miss Marple (copy)' }).ephemeral();
    const done = await w.sim
      .user('alice')
      .click(again, `persona-delete:yes:${await idOf('Miss Marple (copy)')}`)
      .updated();
    expect(messageText(done)).toBe('Deleted **Miss Marple (copy)**.');
    expect(await w.db.prisma.persona.count({ where: { name: 'Miss Marple (copy)' } })).toBe(0);
  });

  it('GIVEN alice’s private persona WHEN bob deletes it, copies it or copies onto its name THEN he is refused or gets his own copy; hers is unchanged', async () => {
    await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    const adaId = await idOf('Ada Lovelace');
    const before = await rows();
    expect(messageText(await persona('bob', 'delete', { persona: adaId }).ephemeral())).toMatch(/no persona ".*" that you can use here/);
    expect(messageText(await persona('bob', 'duplicate', { persona: adaId }).ephemeral())).toMatch(/no persona ".*" that you can use here/);
    expect(messageText(await persona('bob', 'export', { persona: adaId }).ephemeral())).toMatch(/no persona ".*" that you can use here/);
    expect(await rows()).toEqual(before);
    // Naming his copy of a built-in after her persona makes his own; hers stays as it was.
    await persona('bob', 'duplicate', { persona: 'Cleopatra', name: 'Ada Lovelace' }).ephemeral();
    expect((await rows()).filter((r) => r.id === adaId)).toEqual(before.filter((r) => r.id === adaId));
    // And a second copy under his taken name is refused, not overwritten.
    const bobsBefore = await rows();
    expect(messageText(await persona('bob', 'duplicate', { persona: 'Hercule Poirot', name: 'ada lovelace' }).ephemeral())).toMatch(
      /Nothing was copied: A persona named "ada lovelace" already exists here/,
    );
    expect(await rows()).toEqual(bobsBefore);
  });

  it('GIVEN a built-in or a server persona WHEN someone without the right deletes it THEN refused before any confirmation', async () => {
    await persona('mod', 'create', { name: 'Club Mascot', text: ADA, scope: 'server' }).ephemeral();
    const before = await rows();
    expect(messageText(await persona('alice', 'delete', { persona: 'Sherlock Holmes' }).ephemeral())).toMatch(
      /Starter personas are read-only; duplicate it/,
    );
    expect(messageText(await persona('bob', 'delete', { persona: 'Club Mascot' }).ephemeral())).toMatch(
      /needs the Manage Server permission/,
    );
    expect(await rows()).toEqual(before);
  });

  it('GIVEN alice’s persona plays in a running game WHEN she confirms its deletion THEN it is refused until the game ends', async () => {
    await persona('alice', 'create', { name: 'Ada Lovelace', text: ADA }).ephemeral();
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    const gameId = w.bot.liveGames.live[0]!.state.id;
    await w.sim.user('bob').click(lobby, `lobby:join:${gameId}`).updated();
    for (const name of ['Ada Lovelace', 'Hercule Poirot', 'Miss Marple']) {
      await w.sim
        .user('alice')
        .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: name } })
        .ephemeral();
    }
    await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'start' }).public();
    await w.bot.idle();
    const ask = await persona('alice', 'delete', { persona: 'Ada Lovelace' }).ephemeral();
    const refused = await w.sim
      .user('alice')
      .click(ask, `persona-delete:yes:${await idOf('Ada Lovelace')}`)
      .updated();
    expect(messageText(refused)).toBe('Nothing was deleted: Ada Lovelace is playing in a running game; delete it once the game ends.');
    expect(await w.db.prisma.persona.count({ where: { name: 'Ada Lovelace' } })).toBe(1);
  });
});

describe('names with Markdown in persona replies', () => {
  it('GIVEN a name full of Markdown WHEN alice creates, lists, copies and deletes it THEN every reply shows the name as typed', async () => {
    const name = '*Gina* __the__ ~~spy~~ `x`';
    const shown = escapeMarkdown(name);
    // WHEN alice creates it THEN the confirmation names it as typed, in bold
    expect(messageText(await persona('alice', 'create', { name, text: ADA }).ephemeral())).toContain(`Created **${shown}** (built offline`);
    // AND her list shows it as typed
    const list = await persona('alice', 'list').ephemeral();
    expect((list.embeds[0] as { fields: { value: string }[] }).fields[0]!.value).toBe(shown);
    // AND copying and deleting say it the same way
    const copied = await persona('alice', 'duplicate', { persona: await idOf(name) }).ephemeral();
    expect(messageText(copied)).toBe(
      `Copied ${shown} to **${escapeMarkdown(`${name} (copy)`)}** as your private persona. It is yours to change.`,
    );
    const ask = await persona('alice', 'delete', { persona: await idOf(name) }).ephemeral();
    expect(messageText(ask)).toContain(`Delete **${shown}** for good?`);
    const done = await w.sim
      .user('alice')
      .click(ask, `persona-delete:yes:${await idOf(name)}`)
      .updated();
    expect(messageText(done)).toBe(`Deleted **${shown}**.`);
  });
});
