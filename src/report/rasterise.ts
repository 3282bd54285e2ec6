import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { renderAsync } from '@resvg/resvg-js';
import { FONT_FAMILY } from './svg.ts';

// Resolved through the package, not the working directory: the bot, the demo and the tests find the same files.
const require = createRequire(import.meta.url);
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((f) => join(FONT_DIR, f));

/**
 * An SVG drawn to PNG with the bundled DejaVu fonts only (no system fonts), so the bytes depend on
 * the SVG alone. Runs off the event loop (resvg's thread pool): a game's end does not stall the bot.
 */
export async function rasterise(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    fitTo: { mode: 'original' },
    shapeRendering: 2,
    textRendering: 1,
    logLevel: 'off',
  });
  return image.asPng();
}
