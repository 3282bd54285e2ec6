import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';

/** A Markdown file by its path from the repository root, with its text. */
export interface MarkdownFile {
  readonly path: string;
  readonly text: string;
}

/** One link that goes nowhere: where it is written, what it points at, and why it fails. */
export interface BrokenLink {
  readonly file: string;
  readonly href: string;
  readonly reason: string;
}

/** README.md and every Markdown file of docs/: the pages a reader follows links between. */
export function repositoryDocs(root: string): MarkdownFile[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** A heading's text as GitHub renders it (code spans keep their words, tags and marks go). */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'html') return '';
      if ('tokens' in t && Array.isArray(t.tokens)) return plainText(t.tokens);
      return 'text' in t && typeof t.text === 'string' ? t.text : '';
    })
    .join('');
}

/** The anchors GitHub gives a file's headings (`#quick-start`; repeated headings get `-1`, `-2` …). */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  // Its callbacks run at once; the array it returns is for async extensions, none here.
  void marked.walkTokens(marked.lexer(text), (t) => {
    if (t.type === 'heading') anchors.add(slugger.slug(plainText((t as Tokens.Heading).tokens)));
  });
  return anchors;
}

/** Every link and image target of a file, in order (links inside code are code, not links). */
function hrefsOf(text: string): string[] {
  const hrefs: string[] = [];
  // Its callbacks run at once; the array it returns is for async extensions, none here.
  void marked.walkTokens(marked.lexer(text), (t) => {
    if (t.type === 'link' || t.type === 'image') hrefs.push((t as Tokens.Link | Tokens.Image).href);
    if (t.type === 'html') for (const m of t.raw.matchAll(/\b(?:href|src)="([^"]+)"/g)) hrefs.push(m[1]!);
  });
  return hrefs;
}

/**
 * The relative links of these files that do not resolve: a path that names no file or directory
 * (from the linking file's folder, or from the root when it starts with `/`), or an anchor that is
 * no heading of the Markdown file it points into. Links with a scheme (https:, mailto:) are not
 * followed. `exists` answers for paths from the repository root.
 */
export function brokenLinks(files: readonly MarkdownFile[], exists: (path: string) => boolean): BrokenLink[] {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string): Set<string> | null => {
    const text = texts.get(path);
    if (text === undefined) return null;
    if (!anchors.has(path)) anchors.set(path, anchorsOf(text));
    return anchors.get(path)!;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const href of hrefsOf(file.text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const hash = href.indexOf('#');
      const pathPart = decodeURI(hash === -1 ? href : href.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(href.slice(hash + 1));
      const target =
        pathPart === '' ? file.path : normalize(pathPart.startsWith('/') ? pathPart.slice(1) : join(dirname(file.path), pathPart));
      if (target.startsWith('..')) {
        broken.push({ file: file.path, href, reason: 'leaves the repository' });
        continue;
      }
      if (pathPart !== '' && !texts.has(target) && !exists(target)) {
        broken.push({ file: file.path, href, reason: `no such file: ${target}` });
        continue;
      }
      if (anchor === null) continue;
      const headings = anchorsIn(target);
      if (headings === null)
        broken.push({ file: file.path, href, reason: `an anchor into ${target}, which is not a checked Markdown file` });
      else if (!headings.has(anchor)) broken.push({ file: file.path, href, reason: `no heading of ${target} has the anchor #${anchor}` });
    }
  }
  return broken;
}

/** `exists` for the real repository at `root`. */
export const existsUnder =
  (root: string) =>
  (path: string): boolean =>
    existsSync(join(root, path));
