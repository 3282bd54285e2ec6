import type { Scope } from './persona.ts';

/** The scope and owner a scope key stands for (the inverse of `scopeKey`). */
export function scopeOfKey(key: string): { scope: Scope; ownerId: string | null } {
  if (key.startsWith('server:')) return { scope: { kind: 'server', guildId: key.slice('server:'.length) }, ownerId: null };
  if (key.startsWith('private:')) return { scope: { kind: 'private' }, ownerId: key.slice('private:'.length) };
  return { scope: { kind: 'everyone' }, ownerId: null };
}
