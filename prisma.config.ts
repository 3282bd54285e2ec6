import { defineConfig } from 'prisma/config';
import { DATABASE_URL_EXPECTED, parseDatabaseUrl } from './src/database-url.ts';
import { pgliteAdapter, type MigrationAwareAdapterFactory } from './src/db/pglite-adapter.ts';
import { openPgliteForCli } from './src/db/pglite-for-cli.ts';

// Read by the Prisma CLI; run it through scripts/prisma.mjs, which also loads .env.
// PGlite goes through the JS schema engine, which works offline. A PostgreSQL
// server needs the classic engine: the JS engine cannot migrate through
// @prisma/adapter-pg yet (prisma/prisma#27403).
const target = parseDatabaseUrl(process.env.DATABASE_URL);
if (target === null) {
  // Said plainly and not thrown: the CLI would wrap a thrown error in two layers of its own.
  // The value may hold a password, so it is not echoed.
  console.error(`DATABASE_URL is invalid: expected ${DATABASE_URL_EXPECTED}.`);
  process.exit(1);
}
if (target.kind !== 'postgres') {
  // schema.prisma's `url = env("DATABASE_URL")` must look like a postgres URL even
  // though the PGlite adapter ignores it; the target above is already decided.
  process.env.DATABASE_URL = 'postgresql://pglite.invalid/unused';
}

export default target.kind === 'postgres'
  ? defineConfig({
      schema: 'prisma/schema.prisma',
      engine: 'classic',
      datasource: { url: target.url },
    })
  : defineConfig({
      schema: 'prisma/schema.prisma',
      experimental: { adapter: true },
      engine: 'js',
      adapter: () =>
        Promise.resolve(onFirstConnect(() => pgliteAdapter(openPgliteForCli(target.kind === 'memory' ? null : target.dataDir)))),
    });

/**
 * The adapter opens its PGlite on the first connection: `prisma -v`, which `npm install` runs
 * (the Prisma client's postinstall), asks for the adapter and must not create ./data/pglite.
 */
function onFirstConnect(make: () => MigrationAwareAdapterFactory): MigrationAwareAdapterFactory {
  let made: MigrationAwareAdapterFactory | undefined;
  const real = (): MigrationAwareAdapterFactory => (made ??= make());
  return {
    provider: 'postgres',
    adapterName: 'pglite-prisma-adapter',
    connect: () => real().connect(),
    connectToShadowDb: () => real().connectToShadowDb(),
  };
}
