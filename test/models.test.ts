import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, dollarsAt, listPriceDollars, MODELS, modelInfo, modelStatus } from '../src/models.ts';

const CHECKED = '2026-11-26';

describe('the model table', () => {
  it('GIVEN the table WHEN read THEN each model appears once, with a price, a cache minimum and where it was checked', () => {
    const keys = MODELS.map((m) => `${m.provider}:${m.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of MODELS) {
      expect(m.price.output).toBeGreaterThan(m.price.input);
      expect(m.price.cacheRead).toBeLessThan(m.price.input);
      expect(m.price.cacheWrite1h).toBeGreaterThanOrEqual(m.price.cacheWrite);
      expect(m.cacheMinTokens).toBeGreaterThan(0);
      expect(m.checked).toMatch(/^\d{4}-\d{2}-\d{2}, \S+/);
    }
  });

  it('GIVEN the defaults WHEN looked up on the day the table was checked THEN both are in the table and active', () => {
    for (const [provider, id] of Object.entries(DEFAULT_MODELS)) {
      const info = modelInfo(provider, id);
      expect(info, `${provider}:${id}`).not.toBeNull();
      if (info) expect(modelStatus(info, CHECKED)).toEqual({ kind: 'active' });
    }
  });

  it('GIVEN a model with a retirement date WHEN asked before, on and after it THEN it is deprecated, then retired', () => {
    const sonnet45 = modelInfo('anthropic', 'claude-sonnet-4-5');
    if (!sonnet45) throw new Error('claude-sonnet-4-5 is not in the table');

    expect(modelStatus(sonnet45, '2026-11-29')).toEqual({ kind: 'deprecated', retires: '2026-11-30' });
    expect(modelStatus(sonnet45, '2026-11-30')).toEqual({ kind: 'retired', since: '2026-11-30' });
    expect(modelStatus(sonnet45, '2027-01-01')).toEqual({ kind: 'retired', since: '2026-11-30' });
  });

  it('GIVEN one call with plain, cached, 5-minute and 1-hour written input WHEN priced THEN each part is at its own rate', () => {
    const price = { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5, cacheWrite1h: 4 };
    // 1,000 plain, 3,000 read, 500 written for 5 minutes and 200 for an hour; 100 out.
    const tokens = {
      inputTokens: 4700,
      outputTokens: 100,
      cachedInputTokens: 3000,
      cacheWriteInputTokens: 700,
      cacheWrite1hInputTokens: 200,
    };

    expect(dollarsAt(tokens, price)).toBeCloseTo((1000 * 2 + 3000 * 0.1 + 500 * 2.5 + 200 * 4 + 100 * 10) / 1e6, 12);
  });

  it('GIVEN a model the table lacks WHEN priced THEN there is no price, not a zero', () => {
    expect(listPriceDollars('openai', 'llama-local', { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 })).toBeNull();
    expect(listPriceDollars('openai', 'gpt-6-luna', { inputTokens: 1e6, outputTokens: 0, cachedInputTokens: 0 })).toBeCloseTo(0.1, 12);
  });
});
