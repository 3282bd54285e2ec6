import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { GameState } from '../game/index.ts';
import { replayModel, type ReplayModel } from './replay-model.ts';

/** The page's own script and style, kept as files so they are linted, formatted and type-checked. */
const ASSETS = new URL('./replay/', import.meta.url);

/**
 * JSON that can sit inside a `<script type="application/json">`: no `<` can close the element or
 * open a comment, and the line separators that older parsers took for line ends are spelled out.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Our own script or style as raw element text: it must not end its element early. */
function rawText(text: string, element: 'script' | 'style'): string {
  if (text.toLowerCase().includes(`</${element}`)) throw new Error(`bug: the replay's ${element} closes its own element`);
  return text;
}

/**
 * The replay page: the model as inert JSON and the script that renders it. The content security
 * policy allows only that script and style (by hash) and no fetch of any kind, so the page works
 * offline and nothing in the game's text could load or run anything even if it became markup.
 */
function replayHtml(model: ReplayModel, script: string, style: string): string {
  const js = rawText(script, 'script');
  const css = rawText(style, 'style');
  const policy = `default-src 'none'; script-src ${sha256(js)}; style-src ${sha256(css)}; base-uri 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(model.title)} — replay</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<div id="replay"><noscript>This replay needs JavaScript to show the game.</noscript></div>',
    `<script type="application/json" id="replay-data">${embedJson(model)}</script>`,
    `<script>${js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A finished game's self-contained HTML replay; null while the game runs. */
export async function replayFile(state: GameState, title: string): Promise<{ name: string; content: string } | null> {
  const model = replayModel(state, title);
  if (!model) return null;
  const [script, style] = await Promise.all([
    readFile(new URL('replay.js', ASSETS), 'utf8'),
    readFile(new URL('replay.css', ASSETS), 'utf8'),
  ]);
  return { name: `replay-${state.id}.html`, content: replayHtml(model, script, style) };
}
