/** What a person types into a slash command: the command found as the Discord client offers it, its options checked and resolved. */
import { ApplicationCommandOptionType as O } from 'discord.js';
import type { SimCore } from './core.ts';
import { SimUserError } from './errors.ts';
import type { SimAttachment, SimChannel, SimCommand, World } from './model.ts';
import { channelPermissions, has } from './permissions.ts';
import { apiAttachment, apiMember, apiRole, apiUser } from './serialize.ts';

export interface FileInput {
  filename: string;
  content: string | Buffer;
  contentType?: string;
}

/** A person named in an option: by id, typed into text as their mention (a SimUser is one). */
interface Named {
  readonly id: string;
  readonly mention: string;
}

export type OptionValue = string | number | boolean | Named | FileInput | { id: string };

export interface SlashInput {
  subcommand?: string;
  group?: string;
  options?: Record<string, OptionValue>;
}

/** `resolved` of an interaction: the users, members, roles, channels and attachments its options name, by id. */
export type Resolved = Partial<Record<'users' | 'members' | 'roles' | 'channels' | 'attachments', Record<string, unknown>>>;

/** Who types the command: their own id and name, and where what they name and upload goes. */
export interface Typist {
  readonly id: string;
  readonly name: string;
  readonly core: SimCore;
  /** Attachments they uploaded through command options, served at their url. */
  readonly attachments: Map<string, SimAttachment>;
  /** A channel by id or name. */
  channel(ref: string): SimChannel;
  attachmentUrl(channelId: string, id: string, filename: string): string;
}

/** What a user types into a text option: text as given, a person as their mention; a record or a file is no text. */
function typedText(option: string, raw: OptionValue): string {
  if (typeof raw !== 'object') return String(raw);
  if ('mention' in raw) return raw.mention;
  throw new SimUserError(`${option} takes text, not ${'filename' in raw ? 'a file' : 'a record'}`);
}

/** The id an option names: a user's or a record's own, else the id as typed. */
function namedId(option: string, raw: OptionValue): string {
  return typeof raw === 'object' && 'id' in raw ? raw.id : typedText(option, raw);
}

/** The command as the Discord client offers it here, or a SimUserError saying why it is not offered. */
export function findCommand(world: World, ch: SimChannel, user: { readonly id: string; readonly name: string }, name: string): SimCommand {
  const all = [...world.commands.values()].filter((c) => c.name === name && c.type === 1);
  const cmd = all.find((c) => c.guildId !== null && c.guildId === ch.guildId) ?? all.find((c) => c.guildId === null);
  if (!cmd) throw new SimUserError(`/${name} is not registered${ch.guildId ? ' for this server' : ' globally'}`);
  if (ch.guildId === null) {
    const dmOk = cmd.contexts ? cmd.contexts.includes(1) : cmd.dmPermission !== false;
    if (!dmOk) throw new SimUserError(`/${name} is not offered in DMs`);
  } else {
    if (cmd.contexts && !cmd.contexts.includes(0)) throw new SimUserError(`/${name} is not offered in servers`);
    if (cmd.defaultMemberPermissions !== null) {
      const needed = BigInt(cmd.defaultMemberPermissions);
      if (!has(channelPermissions(world, ch, user.id), needed))
        throw new SimUserError(`/${name} is hidden from ${user.name} (default_member_permissions)`);
    }
  }
  return cmd;
}

/** The options as Discord sends them (nested under the subcommand), and what they name; a SimUserError where the client would refuse. */
export function buildOptions(
  typist: Typist,
  cmd: SimCommand,
  ch: SimChannel,
  input: SlashInput,
  focused?: string,
): { options: any[]; resolved: Resolved } {
  const world = typist.core.world;
  let defs: any[] = cmd.options;
  const path: { type: number; name: string }[] = [];
  if (input.group) {
    const g = defs.find((o) => o.type === O.SubcommandGroup && o.name === input.group);
    if (!g) throw new SimUserError(`/${cmd.name} has no group ${input.group}`);
    path.push({ type: O.SubcommandGroup, name: g.name });
    defs = g.options ?? [];
  }
  if (input.subcommand) {
    const s = defs.find((o) => o.type === O.Subcommand && o.name === input.subcommand);
    if (!s) throw new SimUserError(`/${cmd.name}${input.group ? ` ${input.group}` : ''} has no subcommand ${input.subcommand}`);
    path.push({ type: O.Subcommand, name: s.name });
    defs = s.options ?? [];
  } else if (defs.some((o) => o.type === O.Subcommand || o.type === O.SubcommandGroup)) {
    throw new SimUserError(`/${cmd.name} needs a subcommand`);
  }
  const resolved: Resolved = {};
  const put = (kind: keyof Resolved, id: string, value: unknown) => ((resolved[kind] ??= {})[id] = value);
  const leaves: any[] = [];
  const given = input.options ?? {};
  for (const [name, raw] of Object.entries(given)) {
    const def = defs.find((o) => o.name === name);
    if (!def) throw new SimUserError(`/${cmd.name} has no option ${name}`);
    const isFocused = name === focused;
    let value: unknown = raw;
    if (isFocused) {
      leaves.push({ name, type: def.type, value: typedText(name, raw), focused: true });
      continue;
    }
    switch (def.type) {
      case O.String:
        value = typedText(name, raw);
        if (def.min_length !== undefined && (value as string).length < def.min_length)
          throw new SimUserError(`${name} is at least ${def.min_length} characters`);
        if (def.max_length !== undefined && (value as string).length > def.max_length)
          throw new SimUserError(`${name} is at most ${def.max_length} characters`);
        break;
      case O.Integer:
      case O.Number:
        value = Number(raw);
        if (!Number.isFinite(value) || (def.type === O.Integer && !Number.isInteger(value)))
          throw new SimUserError(`${name} must be a${def.type === O.Integer ? 'n integer' : ' number'}`);
        if (def.min_value !== undefined && (value as number) < def.min_value)
          throw new SimUserError(`${name} is at least ${def.min_value}`);
        if (def.max_value !== undefined && (value as number) > def.max_value) throw new SimUserError(`${name} is at most ${def.max_value}`);
        break;
      case O.Boolean:
        value = Boolean(raw);
        break;
      case O.User:
      case O.Mentionable: {
        const id = namedId(name, raw);
        const role = ch.guildId ? world.guilds.get(ch.guildId)?.roles.get(id) : undefined;
        if (role && def.type === O.Mentionable) {
          put('roles', id, apiRole(role));
        } else {
          if (!world.users.has(id)) throw new SimUserError(`${name}: unknown user ${id}`);
          put('users', id, apiUser(world, id));
          const member = ch.guildId ? world.guilds.get(ch.guildId)?.members.get(id) : undefined;
          if (member) {
            const { user: _u, ...rest } = apiMember(world, member);
            put('members', id, { ...rest, permissions: channelPermissions(world, ch, id).toString() });
          }
        }
        value = id;
        break;
      }
      case O.Channel: {
        const target = typist.channel(namedId(name, raw));
        put('channels', target.id, {
          id: target.id,
          name: target.name,
          type: target.type,
          permissions: channelPermissions(world, target, typist.id).toString(),
          ...(target.parentId ? { parent_id: target.parentId } : {}),
        });
        value = target.id;
        break;
      }
      case O.Role: {
        const roleId = namedId(name, raw);
        const role = ch.guildId ? world.guilds.get(ch.guildId)?.roles.get(roleId) : undefined;
        if (!role) throw new SimUserError(`${name}: unknown role ${roleId}`);
        put('roles', role.id, apiRole(role));
        value = role.id;
        break;
      }
      case O.Attachment: {
        if (typeof raw !== 'object' || !('filename' in raw)) throw new SimUserError(`${name} takes { filename, content }`);
        const f = raw;
        const id = typist.core.ids.next();
        const data = Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content);
        const att: SimAttachment = {
          id,
          filename: f.filename,
          size: data.length,
          contentType: f.contentType ?? 'text/plain',
          description: null,
          url: typist.attachmentUrl(ch.id, id, f.filename),
          data,
        };
        typist.attachments.set(id, att);
        put('attachments', id, apiAttachment(att));
        value = id;
        break;
      }
      default:
        throw new SimUserError(`option type ${def.type} is not simulated`);
    }
    if (Array.isArray(def.choices) && def.choices.length > 0 && !def.choices.some((c: any) => c.value === value)) {
      throw new SimUserError(`${name} must be one of ${def.choices.map((c: any) => JSON.stringify(c.value)).join(', ')}`);
    }
    leaves.push({ name, type: def.type, value });
  }
  if (focused === undefined) {
    for (const def of defs) {
      if (def.required && !(def.name in given))
        throw new SimUserError(`/${cmd.name}${input.subcommand ? ` ${input.subcommand}` : ''} needs option ${def.name}`);
    }
  } else if (!(focused in given)) {
    throw new SimUserError(`autocomplete: the focused option ${focused} needs a (partial) value`);
  }
  let options: any[] = leaves;
  for (const level of [...path].reverse()) options = [{ type: level.type, name: level.name, options }];
  return { options, resolved };
}
