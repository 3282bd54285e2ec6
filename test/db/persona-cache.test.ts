/** The personas a bot keeps as loaded: one read however many ask at once, a fresh one after any write. */
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/open-database.ts';
import { PersonaCache } from '../../src/db/persona-cache.ts';
import { createPersonaStore } from '../../src/db/persona-store.ts';
import type { Persona } from '../../src/persona/persona.ts';
import { content } from '../persona/fixtures.ts';
import { describeOn, testBackends } from './test-databases.ts';

const alice = { userId: '111', guildId: '900', canManageServer: false };

for (const backend of testBackends('persona_cache_test')) {
  describeOn(backend, `PersonaCache on ${backend.name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await backend.open();
      return () => db.close();
    });

    it('GIVEN ten games starting at once that seat the same persona WHEN each loads it THEN it is read from the database once, and each gets a copy of its own; after a write it is read again', async () => {
      const store = createPersonaStore(db.prisma);
      const created = await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'Popular Pia') });
      if (!created.ok) throw new Error(created.error.message);
      const cache = new PersonaCache(db.prisma);
      let reads = 0;
      const read = async (): Promise<Persona> => {
        reads++;
        const got = await store.get(alice, created.value.id);
        if (!got.ok) throw new Error(got.error.message);
        return got.value;
      };

      const loaded = await Promise.all(Array.from({ length: 10 }, () => cache.load(created.value.id, read)));

      expect(reads).toBe(1);
      expect(loaded.every((p) => p?.id === created.value.id)).toBe(true);
      expect(new Set(loaded).size).toBe(10);
      await cache.load(created.value.id, read);
      expect(reads).toBe(1);

      const saved = await store.update(alice, created.value.id, created.value.version, content({ notes: 'now famous' }, 'Popular Pia'));
      if (!saved.ok) throw new Error(saved.error.message);
      expect((await cache.load(created.value.id, read))?.notes).toBe('now famous');
      expect(reads).toBe(2);
    });
  });
}
