import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import type { Scene, Shape } from '../../src/report/scene.ts';
import { flatten } from '../../src/report/scene.ts';
import { suspicionMapScene } from '../../src/report/suspicion-map.ts';
import { escapeXml, sceneToSvg } from '../../src/report/svg.ts';
import { cleanText, fitText, textWidth } from '../../src/report/text.ts';
import { voteFlowScene } from '../../src/report/vote-flow.ts';
import { scriptedGame } from './games.ts';

// In seat order; the second seat lives to the end.
const HOSTILE = [
  `A & B "quoted" 'single' <b>`,
  '</text><script>alert(1)</script>',
  'line\nbreak\u0007bell\u202Egnp.exe',
  '😀 👨‍👩‍👧 family',
  'Longname'.repeat(10),
];
const TITLE = '#chan <svg onload="x"> & "more"';

/** How many elements the serialiser writes for a shape: an arrow is a group of a path and a head. */
function elements(shape: Shape): number {
  switch (shape.kind) {
    case 'edge':
      return 3;
    case 'ramp':
      return 3 + shape.stops.length;
    case 'group':
      return 1 + shape.shapes.reduce((n, s) => n + elements(s), 0);
    default:
      return 1;
  }
}

const unescape = (text: string): string =>
  text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e] ?? '');

function check(scene: Scene): void {
  const svg = sceneToSvg(scene);
  // resvg parses strictly (roxmltree): a broken document throws here.
  expect(() => new Resvg(svg, { font: { loadSystemFonts: false } })).not.toThrow();
  expect(svg).not.toContain('<script');
  expect(svg.match(/<svg/g)).toHaveLength(1);
  // Every element is one the scene asked for (svg, title, background, then the shapes): none came from a name.
  const tags = svg.match(/<[a-zA-Z]/g) ?? [];
  expect(tags.length).toBe(3 + scene.shapes.reduce((n, s) => n + elements(s), 0));
  // And every text reads back as the scene wrote it.
  const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescape(m[1]!));
  expect(texts).toEqual(flatten(scene.shapes).flatMap((s) => (s.kind === 'text' ? [s.text] : [])));
}

describe('pictures of players with hostile names', () => {
  it('GIVEN names with markup, quotes, controls, a direction override, emoji and great length WHEN both pictures are serialised THEN the SVG parses, holds no element a name brought, and shows each name cleaned on one line', () => {
    const { t } = scriptedGame(HOSTILE);
    const scenes = [voteFlowScene(t.state, TITLE)!, suspicionMapScene(t.state, TITLE)!];
    for (const scene of scenes) {
      check(scene);
      const texts = flatten(scene.shapes).flatMap((s) => (s.kind === 'text' ? [s.text] : []));
      for (const text of texts) expect(text).not.toMatch(/[\p{Cc}\u202E]/u);
      expect(texts.some((x) => x.includes('</text><script>'))).toBe(true);
      expect(texts.some((x) => x.includes('Longname') && x.endsWith('…'))).toBe(true);
    }
  });

  it('GIVEN text of any kind WHEN escaped THEN markup characters become entities', () => {
    expect(escapeXml(`<a href="x">&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;');
  });

  it('GIVEN a name too wide for its room WHEN fitted THEN it is cut at a whole character with an ellipsis, and fits', () => {
    const family = '👨‍👩‍👧';
    const cut = fitText(family.repeat(6), 50, 14);
    expect(cut.endsWith('…')).toBe(true);
    const kept = cut.slice(0, -1);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.split(family).join('')).toBe('');
    expect(textWidth(cut, 14)).toBeLessThanOrEqual(50);
    expect(fitText('Ada', 50, 14)).toBe('Ada');
  });

  it('GIVEN a name with a lone surrogate and runs of spaces WHEN cleaned THEN it is well-formed text on one line', () => {
    expect(cleanText('a\uD800b \t\r\n  c\u2028d')).toBe('a\uFFFDb c d');
  });
});
