import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, existsUnder, repositoryDocs, type MarkdownFile } from './markdown-links.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the links of the README and docs/', () => {
  it('GIVEN README.md and every docs/*.md WHEN their relative links and anchors are followed THEN each reaches a file and a heading', () => {
    const docs = repositoryDocs(ROOT);
    expect(docs.map((d) => d.path)).toContain('docs/architecture.md');
    expect(brokenLinks(docs, existsUnder(ROOT))).toEqual([]);
  });
});

describe('the link check itself', () => {
  const GUIDE: MarkdownFile = {
    path: 'docs/guide.md',
    text: [
      '# Guide',
      '## Ratings on Discord: `/mafia leaderboard`',
      '## Notes',
      '## Notes',
      'See [the top](#guide), [ratings](#ratings-on-discord-mafia-leaderboard), [the second notes](#notes-1),',
      '[the readme](../README.md#quick-start), ![a picture](images/vote-flow.png), [npm](https://www.npmjs.com),',
      'and `[not a link](nowhere.md)`.',
    ].join('\n'),
  };
  const README: MarkdownFile = { path: 'README.md', text: '# Dramatis\n## Quick start\nRead [the guide](docs/guide.md#notes).\n' };
  const existing = new Set(['docs/images/vote-flow.png']);
  const exists = (path: string) => existing.has(path);

  it('GIVEN links to files, headings (code spans and repeats included) and the web WHEN checked THEN none is reported', () => {
    expect(brokenLinks([README, GUIDE], exists)).toEqual([]);
  });

  it('GIVEN a link to a missing file, a missing heading, and out of the repository WHEN checked THEN each is reported with its reason', () => {
    const broken: MarkdownFile = {
      path: 'docs/broken.md',
      text: '# Broken\n[gone](gone.md), [no heading](guide.md#players), [same page](#nothing-here), [away](../../etc/passwd)\n',
    };
    expect(brokenLinks([README, GUIDE, broken], exists)).toEqual([
      { file: 'docs/broken.md', href: 'gone.md', reason: 'no such file: docs/gone.md' },
      { file: 'docs/broken.md', href: 'guide.md#players', reason: 'no heading of docs/guide.md has the anchor #players' },
      { file: 'docs/broken.md', href: '#nothing-here', reason: 'no heading of docs/broken.md has the anchor #nothing-here' },
      { file: 'docs/broken.md', href: '../../etc/passwd', reason: 'leaves the repository' },
    ]);
  });
});
