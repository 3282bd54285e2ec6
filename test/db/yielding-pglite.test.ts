import { afterAll, describe, expect, it } from 'vitest';
import { urgently } from '../../src/db/db-priority.ts';
import { YieldingPGlite } from '../../src/db/yielding-pglite.ts';

describe('embedded PGlite spread over the event loop', () => {
  const db = new YieldingPGlite();
  afterAll(() => db.close());

  it('GIVEN background queries queued WHEN a query a person waits on is asked THEN it runs before them, the rest in the order asked', async () => {
    await db.waitReady;
    const done: string[] = [];
    const ask = (name: string) => db.query(`SELECT '${name}' AS name`).then(() => void done.push(name));

    const background = ['b1', 'b2', 'b3', 'b4'].map(ask);
    const urgent = urgently(() => ask('person'));
    await Promise.all([...background, urgent]);

    expect(done).toEqual(['b1', 'person', 'b2', 'b3', 'b4']);
  });

  it('GIVEN queries queued WHEN each runs THEN an event that arrives meanwhile is handled between two of them', async () => {
    const done: string[] = [];
    const queries = ['q1', 'q2', 'q3'].map((name) => db.query(`SELECT '${name}'`).then(() => void done.push(name)));
    // Arrives as I/O would: on a later turn of the event loop, while the queries are queued.
    const arrival = new Promise<void>((resolve) => setImmediate(() => setImmediate(() => resolve(void done.push('arrival')))));

    await Promise.all([...queries, arrival]);

    // Each query takes a turn of its own, so the arrival (two turns in) is handled before the third query.
    expect(done.indexOf('arrival')).toBeLessThan(done.indexOf('q3'));
  });
});
