import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/open-database.ts';

describe('openDatabase', () => {
  it('GIVEN the memory target WHEN opened THEN the committed migrations are already applied', async () => {
    const opened = await openDatabase({ database: { kind: 'memory' } });
    if (!opened.ok) throw new Error(opened.error);

    try {
      expect(await opened.value.prisma.game.count()).toBe(0);
    } finally {
      await opened.value.close();
    }
  });

  it('GIVEN an unreachable PostgreSQL server WHEN opened THEN it answers an error value with the password hidden', async () => {
    const opened = await openDatabase({
      database: { kind: 'postgres', url: 'postgres://bot:s3cret@127.0.0.1:1/nowhere' },
    });

    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error).toContain('cannot open the PostgreSQL database');
    expect(opened.error).not.toContain('s3cret');
  });
});
