import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPgliteTemplates, type PgliteTemplatePaths } from './pglite-templates.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'dramatis-test-db');
/** What the templates are made of: the migrations, the starter pack and the code that stores it, and PGlite itself. */
const INPUTS = ['prisma/migrations', 'src/persona', 'src/db', 'node_modules/@electric-sql/pglite/package.json'];

/**
 * The template dumps for this checkout, built once and kept under node_modules/.cache until what
 * they are made of changes, so a run of one test file does not pay for initdb and the migrations.
 */
export async function cachedPgliteTemplates(): Promise<PgliteTemplatePaths> {
  const dir = join(CACHE, await inputsHash());
  const paths: PgliteTemplatePaths = { migrated: join(dir, 'migrated.tar'), withStarters: join(dir, 'with-starters.tar') };
  if (await exists(paths.withStarters)) return paths;
  const dumps = await buildPgliteTemplates();
  // Written aside and renamed, so a run killed halfway or one running alongside never reads half a file.
  const building = `${dir}.${process.pid}`;
  await mkdir(building, { recursive: true });
  await writeFile(join(building, 'migrated.tar'), dumps.migrated);
  await writeFile(join(building, 'with-starters.tar'), dumps.withStarters);
  await rename(building, dir).catch(async () => rm(building, { recursive: true, force: true }));
  await forgetOldTemplates(dir);
  return paths;
}

/** Templates of earlier code, a day old: a run still going on the code before an edit keeps its own. */
async function forgetOldTemplates(current: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const entry of await readdir(CACHE)) {
    const path = join(CACHE, entry);
    if (path !== current && (await stat(path)).mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

async function inputsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of await filesUnder(join(ROOT, input))) {
      hash.update(relative(ROOT, file));
      hash.update(await readFile(file));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function filesUnder(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const entries = await readdir(path, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes(join('src', 'db', 'generated')))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
