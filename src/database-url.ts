/** Where the data lives, decided once from DATABASE_URL. */
export type DatabaseTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string } | { kind: 'memory' };

const DEFAULT_PGLITE_DIR = './data/pglite';

export const DATABASE_URL_EXPECTED =
  'unset (embedded PGlite in ./data/pglite), "memory", a postgres:// or postgresql:// URL, or a PGlite directory (path or file:path)';

/** Pure, so prisma.config.ts, the app config and tests all agree on the modes. */
export function parseDatabaseUrl(raw: string | undefined): DatabaseTarget | null {
  const value = raw?.trim() ?? '';
  if (value === '') return { kind: 'pglite', dataDir: DEFAULT_PGLITE_DIR };
  if (value === 'memory') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\/.+/i.test(value)) return { kind: 'postgres', url: value };
  if (value.startsWith('file:')) {
    const dir = value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    return dir === '' ? null : { kind: 'pglite', dataDir: dir };
  }
  // Any other scheme (mysql://, memory://…) is a typo rather than a directory name.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return null;
  return { kind: 'pglite', dataDir: value };
}
