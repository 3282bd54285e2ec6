import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mafiaCommandData } from '../../src/interactions/mafia/index.ts';
import { personaCommandData } from '../../src/interactions/persona/index.ts';

// The JSON registered with Discord, pinned: a change re-registers every command on the next boot.
const pinned: unknown = JSON.parse(readFileSync(new URL('./command-data.json', import.meta.url), 'utf8'));

describe('registered commands', () => {
  it('GIVEN the /mafia and /persona definitions WHEN turned into JSON THEN it is the pinned JSON, keys in the same order', () => {
    const data: unknown = JSON.parse(JSON.stringify([mafiaCommandData, personaCommandData]));
    expect(data).toEqual(pinned);
    expect(JSON.stringify(data)).toBe(JSON.stringify(pinned));
  });
});
