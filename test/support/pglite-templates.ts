import { PGlite } from '@electric-sql/pglite';
import { applyMigrationSql } from '../../src/db/apply-migration-sql.ts';
import { createPersonaStore } from '../../src/db/persona-store.ts';
import { pgliteAdapter } from '../../src/db/pglite-adapter.ts';
import { PrismaClient } from '../../src/db/generated/client.ts';
import { loadStarterPack } from '../../src/persona/starter-pack.ts';

export interface PgliteTemplatePaths {
  /** The committed migrations applied, no rows: what the store tests start from. */
  readonly migrated: string;
  /** The same with the starter pack loaded, as every bot has it after its first boot. */
  readonly withStarters: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: PgliteTemplatePaths;
  }
}

/** Dumps (uncompressed tar: it loads faster than gzip) of an in-memory PGlite migrated once, then with the starter pack. */
export async function buildPgliteTemplates(): Promise<{ migrated: Uint8Array; withStarters: Uint8Array }> {
  const db = new PGlite();
  const prisma = new PrismaClient({ adapter: pgliteAdapter(db) });
  try {
    await applyMigrationSql((sql) => db.exec(sql));
    const migrated = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    const pack = await loadStarterPack(createPersonaStore(prisma));
    if (!pack.ok) throw new Error(`the starter pack does not load: ${pack.error.message}`);
    const withStarters = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    return { migrated, withStarters };
  } finally {
    await prisma.$disconnect();
    await db.close();
  }
}
