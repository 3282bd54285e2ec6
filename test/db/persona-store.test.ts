import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/open-database.ts';
import { createPersonaStore, type PersonaStore } from '../../src/db/persona-store.ts';
import type { Actor } from '../../src/persona/permissions.ts';
import type { Persona } from '../../src/persona/persona.ts';
import { loadStarterPack } from '../../src/persona/starter-pack.ts';
import { arc, content, emptyCardExtras, part, trait } from '../persona/fixtures.ts';
import { describeOn, testBackends } from './test-databases.ts';
import { stringContaining, stringMatching } from '../support/matchers.ts';
import type { Result } from '../../src/result.ts';

const alice: Actor = { userId: '111', guildId: '900', canManageServer: false };
const bob: Actor = { userId: '222', guildId: '900', canManageServer: false };
const admin: Actor = { userId: '333', guildId: '900', canManageServer: true };
const stranger: Actor = { userId: '444', guildId: '901', canManageServer: true };
const SERVER = { kind: 'server', guildId: '900' } as const;

function must<T>(r: Result<T, { message: string }>): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

for (const backend of testBackends('persona_store_test')) {
  describeOn(backend, `PersonaStore on ${backend.name}`, () => {
    let db: Database;
    let store: PersonaStore;
    beforeAll(async () => {
      db = await backend.open();
      store = createPersonaStore(db.prisma);
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });

    it('GIVEN a private persona WHEN read by id and by name THEN the owner gets it back exactly and others do not see it', async () => {
      const input = content({ parts: [part('cold logic', 'soul')], traits: [trait('methodical')] }, 'Private Ada');
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: input }));
      expect(created).toMatchObject({ ...input, ownerId: '111', scope: { kind: 'private' }, builtIn: false, version: 1 });
      expect(must(await store.get(alice, created.id))).toEqual(created);
      expect(must(await store.getByName(alice, '  private ADA ')).id).toBe(created.id);
      expect(await store.get(bob, created.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await store.getByName(bob, 'Private Ada')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });

    it('GIVEN a server persona WHEN created without Manage Server, or for another server THEN it is refused and nothing is written', async () => {
      const input = content({}, 'Server Sam');
      expect(await store.create(alice, { scope: SERVER, content: input })).toMatchObject({
        ok: false,
        error: { code: 'forbidden', message: stringMatching(/Manage Server/) },
      });
      expect(await store.create(stranger, { scope: SERVER, content: input })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(await store.getByName(admin, 'Server Sam')).toMatchObject({ ok: false });
      const created = must(await store.create(admin, { scope: SERVER, content: input }));
      expect(must(await store.get(bob, created.id)).id).toBe(created.id);
      expect(await store.get(stranger, created.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const edit = content({ notes: 'edited' }, 'Server Sam');
      expect(await store.update(bob, created.id, 1, edit)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(must(await store.update({ ...bob, canManageServer: true }, created.id, 1, edit)).notes).toBe('edited');
    });

    it('GIVEN a persona that prefers a model WHEN stored, read, cleared and given a bad one THEN the preference round-trips, clears, and a bad one is refused', async () => {
      const prefers = { ...content({}, 'Modelled Mo'), model: { provider: 'anthropic' as const, model: 'claude-mo' } };
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: prefers }));
      expect(must(await store.get(alice, created.id)).model).toEqual({ provider: 'anthropic', model: 'claude-mo' });
      const cleared = must(await store.update(alice, created.id, 1, content({}, 'Modelled Mo')));
      expect(cleared.model).toBeUndefined();
      const bad = await store.update(alice, created.id, 2, { ...content({}, 'Modelled Mo'), model: { provider: 'llama' } });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid', message: stringMatching(/model/) } });
      expect(must(await store.get(alice, created.id)).model).toBeUndefined();
    });

    it('GIVEN two editors WHEN the second saves against the version it read THEN it is refused as stale, not merged', async () => {
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'Versioned Vic') }));
      const first = must(await store.update(alice, created.id, 1, content({ notes: 'first' }, 'Versioned Vic')));
      expect(first.version).toBe(2);
      const second = await store.update(alice, created.id, 1, content({ notes: 'second' }, 'Versioned Vic'));
      expect(second).toMatchObject({ ok: false, error: { code: 'stale', message: stringMatching(/version 2, yours was 1/) } });
      expect(must(await store.get(alice, created.id)).notes).toBe('first');
    });

    it('GIVEN bad input WHEN creating or updating THEN the error names the field and the persona is unchanged', async () => {
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'Steady Sue') }));
      const bad = content({}, 'Steady Sue');
      bad.profile.tactics.town = [];
      const refused = await store.update(alice, created.id, 1, bad);
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'invalid', message: stringContaining('profile.tactics.town: needs at least 2 tactics') },
      });
      expect(must(await store.get(alice, created.id))).toEqual(created);
      expect(await store.create(alice, { scope: { kind: 'private' }, content: { profile: 'nope' } })).toMatchObject({
        ok: false,
        error: { code: 'invalid' },
      });
      expect(await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'steady SUE') })).toMatchObject({
        ok: false,
        error: { code: 'name_taken' },
      });
      // A part name reused with other content is refused in the same transaction: no half-written persona.
      const clash = content({ parts: [part('cold logic', 'soul', 'Different')] }, 'Clashing Cal');
      expect(await store.create(alice, { scope: { kind: 'private' }, content: clash })).toMatchObject({
        ok: false,
        error: { code: 'name_taken' },
      });
      expect(await store.getByName(alice, 'Clashing Cal')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });

    it('GIVEN a card whose every field is within its limit but whose greetings come to 300 KB WHEN stored, or saved over a persona THEN both are refused naming the 256 KiB limit, and nothing is written', async () => {
      const card = { ...emptyCardExtras(), alternateGreetings: Array.from({ length: 15 }, () => 'Hello. '.repeat(2_800)), extensions: {} };
      const huge = content({ card }, 'Huge Hal');
      const tooLarge = {
        ok: false,
        error: { code: 'too_large', message: stringMatching(/^The persona is 2\d\d KiB in all .*; the limit is 256 KiB\./) },
      };

      expect(await store.create(alice, { scope: { kind: 'private' }, content: huge })).toMatchObject(tooLarge);
      expect(await store.getByName(alice, 'Huge Hal')).toMatchObject({ ok: false, error: { code: 'not_found' } });
      const small = must(await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'Small Sam') }));
      expect(await store.update(alice, small.id, small.version, content({ card }, 'Small Sam'))).toMatchObject(tooLarge);
      expect(must(await store.get(alice, small.id))).toEqual(small);
    });

    it('GIVEN a persona in a running game WHEN deleted THEN it is refused; once the game ended it is deleted', async () => {
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: content({}, 'Busy Bea') }));
      await db.prisma.game.create({
        data: {
          id: 'persona-game',
          settings: {},
          seed: 1,
          phase: 'day',
          status: 'running',
          players: { create: [{ playerId: 'p1', seat: 1, displayName: 'Busy Bea', kind: 'ai', personaId: created.id }] },
        },
      });
      expect(await store.remove(bob, created.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await store.remove(alice, created.id)).toMatchObject({
        ok: false,
        error: { code: 'in_game', message: stringMatching(/Busy Bea is playing/) },
      });
      await db.prisma.game.update({ where: { id: 'persona-game' }, data: { status: 'ended' } });
      expect(await store.remove(alice, created.id)).toEqual({ ok: true, value: undefined });
      expect(await store.get(alice, created.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });

    it('GIVEN the starter pack WHEN loaded twice THEN the second load changes nothing; starters are visible everywhere, read-only, and duplicable', async () => {
      const first = must(await loadStarterPack(store));
      expect(first.created.length).toBeGreaterThanOrEqual(8);
      const second = must(await loadStarterPack(store));
      expect(second).toEqual({ created: [], updated: [], unchanged: first.created });
      const holmes = must(await store.getByName(stranger, 'Sherlock Holmes'));
      expect(holmes).toMatchObject({ builtIn: true, ownerId: 'dramatis', scope: { kind: 'everyone' } });
      expect(await store.update(admin, holmes.id, holmes.version, holmes)).toMatchObject({
        ok: false,
        error: { code: 'read_only', message: stringMatching(/duplicate/) },
      });
      expect(await store.remove(admin, holmes.id)).toMatchObject({ ok: false, error: { code: 'read_only' } });
      const copy = must(await store.duplicate(alice, holmes.id, { scope: { kind: 'private' } }));
      expect(copy).toMatchObject({ builtIn: false, ownerId: '111', profile: { identity: { name: 'Sherlock Holmes (copy)' } } });
      expect(copy.profile.tactics).toEqual(holmes.profile.tactics);
      const edited = must(await store.update(alice, copy.id, copy.version, { ...strip(copy), notes: 'my Holmes' }));
      expect(edited.notes).toBe('my Holmes');
    });

    it('GIVEN personas in several scopes WHEN searched THEN only visible ones come back, prefix matches first, quickly', async () => {
      const names = (list: readonly { name: string }[]) => list.map((p) => p.name);
      expect(names(await store.search(stranger, 'her'))).toEqual(['Hercule Poirot', 'Sherlock Holmes']);
      expect(names(await store.search(alice, 'sher'))).toEqual(['Sherlock Holmes', 'Sherlock Holmes (copy)']);
      expect(names(await store.search(bob, 'sher'))).toEqual(['Sherlock Holmes']);
      expect(names(await store.list(stranger))).not.toContain('Server Sam');
      expect(names(await store.list(bob))).toContain('Server Sam');
      const started = performance.now();
      for (let i = 0; i < 100; i++) await store.search(alice, 'o');
      expect((performance.now() - started) / 100).toBeLessThan(50);
    });

    it('GIVEN an arc WHEN advanced and reset THEN the stage moves, the compiled copy follows, and the last stage refuses to advance', async () => {
      const withArc = content({ parts: [part('dry tone', 'tone')], arc: { arc: arc(), stage: 0 } }, 'Arc Annie');
      const created = must(await store.create(alice, { scope: { kind: 'private' }, content: withArc }));
      expect(must(await store.render(alice, created.id)).block).toContain('Tone (calm tone)');
      const advanced = must(await store.advanceArc(alice, created.id, created.version));
      expect(advanced.arc?.stage).toBe(1);
      expect(must(await store.render(alice, created.id)).block).toContain('Tone (sharp tone)');
      expect(await store.advanceArc(alice, created.id, advanced.version)).toMatchObject({ ok: false, error: { code: 'invalid' } });
      expect(await store.resetArc(alice, created.id, created.version)).toMatchObject({ ok: false, error: { code: 'stale' } });
      const reset = must(await store.resetArc(alice, created.id, advanced.version));
      expect(reset.arc?.stage).toBe(0);
    });

    it('GIVEN a persona another process also reads WHEN that process edits it, edits a part it uses, and deletes it THEN every read here sees the change, never a copy kept from before', async () => {
      // Two stores on one database are two bot processes (two shards), each with its own memory.
      const other = createPersonaStore(db.prisma);
      const created = must(
        await store.create(alice, { scope: { kind: 'private' }, content: content({ parts: [part('dry wit', 'tone')] }, 'Cached Cleo') }),
      );
      expect(must(await store.get(alice, created.id))).toEqual(created);
      expect(must(await other.get(alice, created.id))).toEqual(created);

      const edited = must(
        await other.update(alice, created.id, created.version, content({ parts: [part('dry wit', 'tone')], notes: 'v2' }, 'Cached Cleo')),
      );
      expect(must(await store.get(alice, created.id)).notes).toBe('v2');
      expect(must(await store.get(alice, created.id))).toEqual(edited);

      must(await other.updatePart(alice, 'dry wit', { ...part('dry wit', 'tone'), summary: 'Drier now.' }));
      expect(must(await store.get(alice, created.id)).parts[0]?.summary).toBe('Drier now.');
      expect(must(await store.render(alice, created.id)).block).toContain('Tone (dry wit): Drier now.');

      // What a caller does to a persona it was given is its own: the next read is the stored one.
      const read = must(await store.get(alice, created.id));
      read.notes = 'scribbled on';
      expect(must(await store.get(alice, created.id)).notes).toBe('v2');

      expect(await other.remove(alice, created.id)).toEqual({ ok: true, value: undefined });
      expect(await store.get(alice, created.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    });

    it('GIVEN a rendered persona WHEN rendered again, with overrides, and after its part changes THEN the compiled copy is reused, bypassed and invalidated', async () => {
      const created = must(
        await store.create(alice, {
          scope: { kind: 'private' },
          content: content({ parts: [part('warm tone', 'tone')] }, 'Compiled Cora'),
        }),
      );
      const first = must(await store.render(alice, created.id));
      const row = () => db.prisma.persona.findUniqueOrThrow({ where: { id: created.id } });
      expect((await row()).compiledSummary).toEqual(first);
      expect(must(await store.render(alice, created.id))).toEqual(first);
      must(
        await store.create(alice, { scope: { kind: 'private' }, content: content({ parts: [part('icy tone', 'tone')] }, 'Other Olga') }),
      );
      const overridden = must(await store.render(alice, created.id, { overrides: { tone: 'icy tone' } }));
      expect(overridden.block).toContain('Tone (icy tone)');
      expect((await row()).compiledSummary).toEqual(first);
      expect(await store.render(alice, created.id, { overrides: { tone: 'no such tone' } })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
      must(await store.updatePart(alice, 'warm tone', { ...part('warm tone', 'tone'), summary: 'Warmer now.' }));
      expect((await row()).compiledSummary).toBeNull();
      expect(must(await store.render(alice, created.id)).block).toContain('Tone (warm tone): Warmer now.');
      expect(await store.updatePart(bob, 'warm tone', part('warm tone', 'tone'))).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
    });
  });
}

function strip(p: Persona) {
  const { profile, avatarUrl, tags, notes, parts, traits, arc: progress, card } = p;
  return { profile, avatarUrl, tags, notes, parts, traits, arc: progress, card };
}
