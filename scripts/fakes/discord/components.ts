/** What a person picks in a message's components or fills into a modal, checked as the Discord client would. */
import { ComponentType } from 'discord.js';
import { SimUserError } from './errors.ts';
import { LIMITS } from './limits.ts';
import type { SimMessage, World } from './model.ts';
import { apiMember, apiRole, apiUser } from './serialize.ts';
import type { Resolved } from './slash-options.ts';

/** The component a person would pick: by its custom id, or the id's leading part (`vote:<game>` finds `vote:<game>:<day>`). */
export function findComponent(m: SimMessage, customId: string): any {
  const stack: any[] = [...(m.components as any[])];
  while (stack.length) {
    const c = stack.shift();
    if (!c || typeof c !== 'object') continue;
    const matches = c.custom_id === customId || (typeof c.custom_id === 'string' && c.custom_id.startsWith(`${customId}:`));
    if (matches && c.type !== ComponentType.ActionRow) return c;
    if (Array.isArray(c.components)) stack.push(...c.components);
    if (c.accessory) stack.push(c.accessory);
    if (c.component) stack.push(c.component);
  }
  const ids: string[] = [];
  const walk = (list: any[]) =>
    list.forEach((c) => {
      if (c?.custom_id) ids.push(c.custom_id);
      if (Array.isArray(c?.components)) walk(c.components);
      if (c?.accessory) walk([c.accessory]);
    });
  walk(m.components as any[]);
  throw new SimUserError(`no component ${customId} on message ${m.id} (has: ${ids.join(', ') || 'none'})`);
}

/** The data of a pick in select menu `c` (string, user, role, mentionable or channel select), refused as the client would. */
export function selectData(world: World, m: SimMessage, c: any, customId: string, ids: string[]): Record<string, unknown> {
  if (c.type < ComponentType.StringSelect || c.type > ComponentType.ChannelSelect || c.type === ComponentType.TextInput) {
    throw new SimUserError(`${customId} is not a select menu`);
  }
  if (c.disabled) throw new SimUserError(`select ${customId} is disabled`);
  const min = c.min_values ?? 1;
  const max = c.max_values ?? 1;
  if (ids.length < min || ids.length > max) throw new SimUserError(`${customId} takes ${min}..${max} values, got ${ids.length}`);
  const data: Record<string, unknown> = { custom_id: c.custom_id, component_type: c.type, values: ids };
  if (c.type === ComponentType.StringSelect) {
    const allowed = new Set((c.options ?? []).map((o: any) => o.value));
    const bad = ids.filter((v) => !allowed.has(v));
    if (bad.length) throw new SimUserError(`${customId} has no option ${bad.join(', ')} (options: ${[...allowed].join(', ')})`);
  } else {
    const resolved: Resolved = {};
    for (const id of ids) {
      if (world.users.has(id)) {
        (resolved.users ??= {})[id] = apiUser(world, id);
        const member = m.guildId ? world.guilds.get(m.guildId)?.members.get(id) : undefined;
        if (member) {
          const { user: _u, ...rest } = apiMember(world, member);
          (resolved.members ??= {})[id] = rest;
        }
      } else if (world.channel(id)) {
        const t = world.channel(id)!;
        (resolved.channels ??= {})[id] = { id, name: t.name, type: t.type, permissions: '0' };
      } else {
        const role = m.guildId ? world.guilds.get(m.guildId)?.roles.get(id) : undefined;
        if (!role) throw new SimUserError(`${customId}: unknown user/role/channel ${id}`);
        (resolved.roles ??= {})[id] = apiRole(role);
      }
    }
    data.resolved = resolved;
  }
  return data;
}

/** The components of a submitted modal, with values by text input custom_id; inputs not given are left empty (refused when required). */
export function modalComponents(modal: any, customId: string, fields: Record<string, string>): unknown[] {
  const used = new Set<string>();
  const input = (c: any) => {
    const value = fields[c.custom_id] ?? '';
    used.add(c.custom_id);
    const required = c.required ?? true;
    if (required && !value) throw new SimUserError(`modal ${customId}: ${c.custom_id} is required`);
    if (value && c.min_length !== undefined && value.length < c.min_length)
      throw new SimUserError(`modal ${customId}: ${c.custom_id} is at least ${c.min_length} characters`);
    const max = Math.min(c.max_length ?? LIMITS.textInputValue, LIMITS.textInputValue);
    if (value.length > max) throw new SimUserError(`modal ${customId}: ${c.custom_id} is at most ${max} characters`);
    return { type: ComponentType.TextInput, ...(c.id !== undefined ? { id: c.id } : {}), custom_id: c.custom_id, value };
  };
  const components = (modal.components ?? []).map((top: any) => {
    if (top.type === ComponentType.Label) return { type: ComponentType.Label, id: top.id, component: input(top.component) };
    if (top.type === ComponentType.ActionRow) return { type: ComponentType.ActionRow, components: (top.components ?? []).map(input) };
    return { type: top.type, id: top.id };
  });
  const unknown = Object.keys(fields).filter((k) => !used.has(k));
  if (unknown.length) throw new SimUserError(`modal ${customId} has no input ${unknown.join(', ')}`);
  return components;
}
