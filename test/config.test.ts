import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('GIVEN an empty environment WHEN loaded THEN it uses embedded PGlite in ./data/pglite and LOG_LEVEL info', () => {
    expect(loadConfig({})).toEqual({
      ok: true,
      config: { database: { kind: 'pglite', dataDir: './data/pglite' }, logLevel: 'info' },
    });
  });

  it('GIVEN LOG_LEVEL=verbose WHEN loaded THEN the error names LOG_LEVEL and the accepted levels', () => {
    const result = loadConfig({ LOG_LEVEL: 'verbose' });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('LOG_LEVEL');
    expect(result.error).toContain('debug, info, warn, error');
  });

  it('GIVEN empty values as a .env file writes them WHEN loaded THEN they count as unset', () => {
    expect(loadConfig({ LOG_LEVEL: '', DATABASE_URL: '' })).toMatchObject({
      ok: true,
      config: { database: { kind: 'pglite' }, logLevel: 'info' },
    });
  });

  describe('DATABASE_URL modes', () => {
    it.each([
      ['memory', { kind: 'memory' }],
      ['postgres://bot:pw@db:5432/dramatis', { kind: 'postgres', url: 'postgres://bot:pw@db:5432/dramatis' }],
      ['postgresql://db/dramatis', { kind: 'postgres', url: 'postgresql://db/dramatis' }],
      ['./var/games', { kind: 'pglite', dataDir: './var/games' }],
      ['file:./var/games', { kind: 'pglite', dataDir: './var/games' }],
      ['file:///srv/dramatis', { kind: 'pglite', dataDir: '/srv/dramatis' }],
    ])('GIVEN DATABASE_URL=%s WHEN loaded THEN the target is %j', (url, database) => {
      expect(loadConfig({ DATABASE_URL: url })).toMatchObject({ ok: true, config: { database } });
    });

    it('GIVEN a URL for another database WHEN loaded THEN the error names DATABASE_URL without echoing the secret', () => {
      const result = loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/dramatis' });

      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toContain('DATABASE_URL');
      expect(result.error).toContain('postgres://');
      expect(result.error).not.toContain('hunter2');
    });
  });

  it('GIVEN several bad settings WHEN loaded THEN every one is reported', () => {
    const result = loadConfig({ LOG_LEVEL: 'loud', DATABASE_URL: 'redis://x' });

    expect(result.ok ? '' : result.error).toMatch(/DATABASE_URL[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*DATABASE_URL/);
  });
});
