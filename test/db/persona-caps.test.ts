import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/open-database.ts';
import { createPersonaStore, type PersonaStore } from '../../src/db/persona-store.ts';
import type { Actor } from '../../src/persona/permissions.ts';
import { loadStarterPack } from '../../src/persona/starter-pack.ts';
import type { Result } from '../../src/result.ts';
import { content } from '../persona/fixtures.ts';
import { stringMatching } from '../support/matchers.ts';
import { describeOn, testBackends } from './test-databases.ts';

const CAPS = { perUser: 3, perServer: 2 };
const PRIVATE = { kind: 'private' } as const;
const SERVER = { kind: 'server', guildId: '900' } as const;
const actor = (userId: string, canManageServer = false): Actor => ({ userId, guildId: '900', canManageServer });

function must<T>(r: Result<T, { message: string }>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

for (const backend of testBackends('persona_caps_test')) {
  describeOn(backend, `PersonaStore caps on ${backend.name}`, () => {
    let db: Database;
    let store: PersonaStore;
    beforeAll(async () => {
      db = await backend.open();
      store = createPersonaStore(db.prisma, CAPS);
      must(await loadStarterPack(store));
      return () => db.close();
    });
    const owned = (userId: string) => db.prisma.persona.count({ where: { ownerId: userId } });

    it('GIVEN a person with as many personas as the cap WHEN they create or duplicate one more THEN it is refused naming the limit and nothing is stored; once one is deleted there is room', async () => {
      const alice = actor('111');
      const made = [];
      for (const name of ['Cap One', 'Cap Two', 'Cap Three'])
        made.push(must(await store.create(alice, { scope: PRIVATE, content: content({}, name) })));
      const refusal = {
        ok: false,
        error: {
          code: 'too_many',
          message: 'You already have 3 personas; the limit is 3 a person. Delete one with /persona delete, then try again.',
        },
      };
      expect(await store.roomFor(alice, PRIVATE)).toMatchObject(refusal);
      expect(await store.create(alice, { scope: PRIVATE, content: content({}, 'Cap Four') })).toMatchObject(refusal);
      expect(await store.duplicate(alice, made[0]!.id, { scope: PRIVATE })).toMatchObject(refusal);
      expect(await owned('111')).toBe(3);

      must(await store.remove(alice, made[2]!.id));
      expect(await store.roomFor(alice, PRIVATE)).toEqual({ ok: true, value: undefined });
      must(await store.create(alice, { scope: PRIVATE, content: content({}, 'Cap Four') }));
      expect(await owned('111')).toBe(3);
    });

    it('GIVEN a server with as many server personas as its cap WHEN another admin adds one THEN refused; a private persona made there still fits', async () => {
      must(await store.create(actor('201', true), { scope: SERVER, content: content({}, 'Server One') }));
      must(await store.create(actor('202', true), { scope: SERVER, content: content({}, 'Server Two') }));
      const third = await store.create(actor('203', true), { scope: SERVER, content: content({}, 'Server Three') });
      expect(third).toMatchObject({
        ok: false,
        error: { code: 'too_many', message: stringMatching(/^This server already has 2 server personas; the limit is 2 a server\./) },
      });
      expect(await owned('203')).toBe(0);
      must(await store.create(actor('203', true), { scope: PRIVATE, content: content({}, 'Private Three') }));
      must(
        await store.create(
          { userId: '203', guildId: '901', canManageServer: true },
          { scope: { kind: 'server', guildId: '901' }, content: content({}, 'Elsewhere') },
        ),
      );
    });

    it('GIVEN the starter pack, owned by nobody WHEN a person duplicates starters up to the cap THEN the starters never counted against anyone', async () => {
      const starters = await db.prisma.persona.findMany({ where: { builtIn: true }, select: { id: true }, take: 4 });
      const carol = actor('300');
      for (const s of starters.slice(0, 3)) must(await store.duplicate(carol, s.id, { scope: PRIVATE }));
      expect(await store.duplicate(carol, starters[3]!.id, { scope: PRIVATE })).toMatchObject({ ok: false, error: { code: 'too_many' } });
    });

    it('GIVEN one slot left WHEN five creates of one person race THEN exactly one is stored', async () => {
      const dave = actor('400');
      must(await store.create(dave, { scope: PRIVATE, content: content({}, 'Race Zero') }));
      must(await store.create(dave, { scope: PRIVATE, content: content({}, 'Race One') }));
      const results = await Promise.all(
        ['A', 'B', 'C', 'D', 'E'].map((n) => store.create(dave, { scope: PRIVATE, content: content({}, `Race ${n}`) })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => r.error.code)).toEqual(['too_many', 'too_many', 'too_many', 'too_many']);
      expect(await owned('400')).toBe(3);
    });
  });
}
