/** Discord's documented limits, answered with 400 Invalid Form Body (50035) like Discord does. */
import { ComponentType, MessageFlags } from 'discord.js';
import { FormErrorCollector } from './errors.ts';

export const LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  embedFieldName: 256,
  embedFieldValue: 1024,
  embedFooter: 2048,
  embedAuthor: 256,
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  selectOptions: 25,
  customId: 100,
  buttonLabel: 80,
  selectOptionText: 100,
  placeholder: 150,
  modalTitle: 45,
  modalComponents: 5,
  textInputLabel: 45,
  textInputValue: 4000,
  textInputPlaceholder: 100,
  webhookName: 80,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  attachments: 10,
} as const;

/** A string's length as Discord measures it, in code points: an emoji like 👍 counts once, not as two UTF-16 units. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const maxLen = (c: FormErrorCollector, path: (string | number)[], value: unknown, max: number) => {
  if (typeof value === 'string' && codePoints(value) > max) {
    c.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  }
};

function embedLength(e: Record<string, any>): number {
  let n = 0;
  const len = (s: unknown) => (typeof s === 'string' ? codePoints(s) : 0);
  n += len(e.title) + len(e.description) + len(e.footer?.text) + len(e.author?.name);
  for (const f of Array.isArray(e.fields) ? e.fields : []) n += len(f?.name) + len(f?.value);
  return n;
}

function validateEmbeds(c: FormErrorCollector, embeds: unknown): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds)) {
    c.add(['embeds'], 'BASE_TYPE_LIST', 'Must be a list.');
    return;
  }
  if (embeds.length > LIMITS.embeds) c.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.embeds} or fewer in length.`);
  let total = 0;
  embeds.forEach((raw, i) => {
    const e = (raw ?? {}) as Record<string, any>;
    maxLen(c, ['embeds', i, 'title'], e.title, LIMITS.embedTitle);
    maxLen(c, ['embeds', i, 'description'], e.description, LIMITS.embedDescription);
    maxLen(c, ['embeds', i, 'footer', 'text'], e.footer?.text, LIMITS.embedFooter);
    maxLen(c, ['embeds', i, 'author', 'name'], e.author?.name, LIMITS.embedAuthor);
    const fields = Array.isArray(e.fields) ? e.fields : [];
    if (fields.length > LIMITS.embedFields)
      c.add(['embeds', i, 'fields'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.embedFields} or fewer in length.`);
    fields.forEach((f: any, j: number) => {
      if (typeof f?.name !== 'string' || f.name.length === 0)
        c.add(['embeds', i, 'fields', j, 'name'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (typeof f?.value !== 'string' || f.value.length === 0)
        c.add(['embeds', i, 'fields', j, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
      maxLen(c, ['embeds', i, 'fields', j, 'name'], f?.name, LIMITS.embedFieldName);
      maxLen(c, ['embeds', i, 'fields', j, 'value'], f?.value, LIMITS.embedFieldValue);
    });
    if (e.color !== undefined && e.color !== null && (typeof e.color !== 'number' || e.color < 0 || e.color > 0xffffff)) {
      c.add(['embeds', i, 'color'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.');
    }
    total += embedLength(e);
  });
  if (total > LIMITS.embedTotal) c.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
}

function validateSelect(c: FormErrorCollector, path: (string | number)[], comp: Record<string, any>): void {
  maxLen(c, [...path, 'custom_id'], comp.custom_id, LIMITS.customId);
  maxLen(c, [...path, 'placeholder'], comp.placeholder, LIMITS.placeholder);
  if (comp.type === ComponentType.StringSelect) {
    const options = Array.isArray(comp.options) ? comp.options : [];
    if (options.length < 1) c.add([...path, 'options'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    if (options.length > LIMITS.selectOptions)
      c.add([...path, 'options'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.selectOptions} or fewer in length.`);
    const seen = new Set<string>();
    options.forEach((o: any, k: number) => {
      maxLen(c, [...path, 'options', k, 'label'], o?.label, LIMITS.selectOptionText);
      maxLen(c, [...path, 'options', k, 'value'], o?.value, LIMITS.selectOptionText);
      maxLen(c, [...path, 'options', k, 'description'], o?.description, LIMITS.selectOptionText);
      if (typeof o?.label !== 'string' || !o.label) c.add([...path, 'options', k, 'label'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (typeof o?.value !== 'string' || !o.value) c.add([...path, 'options', k, 'value'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (seen.has(o?.value))
        c.add([...path, 'options'], 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', 'The specified option value is already used');
      seen.add(o?.value);
    });
    if (typeof comp.max_values === 'number' && comp.max_values > options.length) {
      c.add([...path, 'max_values'], 'BASE_TYPE_MAX', `int value should be less than or equal to ${options.length}.`);
    }
  }
  for (const key of ['min_values', 'max_values']) {
    const v = comp[key];
    if (typeof v === 'number' && (v < (key === 'min_values' ? 0 : 1) || v > 25))
      c.add([...path, key], 'BASE_TYPE_MAX', 'int value should be less than or equal to 25.');
  }
}

function validateComponents(c: FormErrorCollector, components: unknown, flags: number): void {
  if (components === undefined || components === null) return;
  if (!Array.isArray(components)) {
    c.add(['components'], 'BASE_TYPE_LIST', 'Must be a list.');
    return;
  }
  const v2 = (flags & MessageFlags.IsComponentsV2) !== 0;
  if (!v2 && components.length > LIMITS.actionRows)
    c.add(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.actionRows} or fewer in length.`);
  const customIds = new Set<string>();
  components.forEach((raw, i) => {
    const row = (raw ?? {}) as Record<string, any>;
    if (row.type !== ComponentType.ActionRow) {
      if (!v2) c.add(['components', i, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
      return;
    }
    const children = Array.isArray(row.components) ? row.components : [];
    if (children.length === 0) c.add(['components', i, 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    const selects = children.filter((x: any) => x?.type >= 3 && x?.type <= 8 && x?.type !== 4);
    if (selects.length > 0 && children.length > 1) {
      c.add(['components', i, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    }
    if (children.length > LIMITS.buttonsPerRow)
      c.add(['components', i, 'components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.buttonsPerRow} or fewer in length.`);
    children.forEach((comp: any, j: number) => {
      const path = ['components', i, 'components', j];
      if (typeof comp?.custom_id === 'string') {
        if (customIds.has(comp.custom_id))
          c.add([...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
        customIds.add(comp.custom_id);
      }
      if (comp?.type === ComponentType.Button) {
        maxLen(c, [...path, 'label'], comp.label, LIMITS.buttonLabel);
        maxLen(c, [...path, 'custom_id'], comp.custom_id, LIMITS.customId);
        if (comp.style === 5 ? !comp.url : comp.style !== 6 && !comp.custom_id) {
          c.add([...path, comp.style === 5 ? 'url' : 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
        }
      } else if (comp?.type >= 3 && comp?.type <= 8) {
        validateSelect(c, path, comp);
      }
    });
  });
}

export interface MessagePayloadCheck {
  fileCount?: number;
  /** Webhook executions: username/avatar_url allowed. */
  webhook?: boolean;
  /** Edits may omit everything. */
  edit?: boolean;
}

/** Validates a message body; throws 50035 (or 50006 when empty on create). */
export function validateMessagePayload(body: Record<string, any>, check: MessagePayloadCheck = {}): void {
  const c = new FormErrorCollector();
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
    c.add(['content'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  maxLen(c, ['content'], body.content, LIMITS.content);
  validateEmbeds(c, body.embeds);
  const flags = typeof body.flags === 'number' ? body.flags : 0;
  validateComponents(c, body.components, flags);
  if (check.webhook && body.username !== undefined) validateWebhookName(c, ['username'], body.username);
  const am = body.allowed_mentions;
  if (am && typeof am === 'object') {
    const parse: string[] = Array.isArray(am.parse) ? am.parse : [];
    for (const kind of ['users', 'roles'] as const) {
      if (parse.includes(kind) && Array.isArray(am[kind]) && am[kind].length > 0) {
        c.add(
          ['allowed_mentions'],
          'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
          `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
        );
      }
    }
  }
  if ((check.fileCount ?? 0) > LIMITS.attachments)
    c.add(['files'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.attachments} or fewer in length.`);
  c.throwIfAny();
}

export function isEmptyMessage(body: Record<string, any>, fileCount: number): boolean {
  const hasContent = typeof body.content === 'string' && body.content.trim().length > 0;
  const hasEmbeds = Array.isArray(body.embeds) && body.embeds.length > 0;
  const hasComponents = Array.isArray(body.components) && body.components.length > 0;
  const hasAttachments = fileCount > 0 || (Array.isArray(body.attachments) && body.attachments.length > 0);
  return !(hasContent || hasEmbeds || hasComponents || hasAttachments || body.sticker_ids?.length || body.poll);
}

export function validateWebhookName(c: FormErrorCollector, path: string[], name: unknown): void {
  if (typeof name !== 'string') {
    c.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
    return;
  }
  if (name.length < 1) c.add(path, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
  maxLen(c, path, name, LIMITS.webhookName);
  if (/discord/i.test(name)) c.add(path, 'USERNAME_INVALID_CONTAINS', 'Username cannot contain "discord"');
  if (/clyde/i.test(name)) c.add(path, 'USERNAME_INVALID_CONTAINS', 'Username cannot contain "clyde"');
  if (['everyone', 'here'].includes(name.trim().toLowerCase())) c.add(path, 'USERNAME_INVALID', 'Username cannot be "everyone" or "here"');
}

/** The data of an interaction callback of type 9 (modal). */
export function validateModal(c: FormErrorCollector, data: Record<string, any>): void {
  const path = ['data'];
  if (typeof data.custom_id !== 'string' || !data.custom_id) c.add([...path, 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  maxLen(c, [...path, 'custom_id'], data.custom_id, LIMITS.customId);
  if (typeof data.title !== 'string' || !data.title) c.add([...path, 'title'], 'BASE_TYPE_REQUIRED', 'This field is required');
  maxLen(c, [...path, 'title'], data.title, LIMITS.modalTitle);
  const comps = Array.isArray(data.components) ? data.components : [];
  if (comps.length < 1) c.add([...path, 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
  if (comps.length > LIMITS.modalComponents)
    c.add([...path, 'components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.modalComponents} or fewer in length.`);
  comps.forEach((top: any, i: number) => {
    const inputs: { comp: any; path: (string | number)[] }[] = [];
    if (top?.type === ComponentType.ActionRow) {
      const children = Array.isArray(top.components) ? top.components : [];
      if (children.length !== 1)
        c.add([...path, 'components', i, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 1 in length.');
      children.forEach((comp: any, j: number) => inputs.push({ comp, path: [...path, 'components', i, 'components', j] }));
    } else if (top?.type === ComponentType.Label) {
      maxLen(c, [...path, 'components', i, 'label'], top.label, LIMITS.textInputLabel);
      if (top.component) inputs.push({ comp: top.component, path: [...path, 'components', i, 'component'] });
    }
    for (const { comp, path: p } of inputs) {
      if (comp?.type !== ComponentType.TextInput) continue;
      maxLen(c, [...p, 'label'], comp.label, LIMITS.textInputLabel);
      maxLen(c, [...p, 'custom_id'], comp.custom_id, LIMITS.customId);
      maxLen(c, [...p, 'placeholder'], comp.placeholder, LIMITS.textInputPlaceholder);
      maxLen(c, [...p, 'value'], comp.value, LIMITS.textInputValue);
      for (const key of ['min_length', 'max_length']) {
        const v = comp[key];
        if (typeof v === 'number' && (v < 0 || v > LIMITS.textInputValue)) {
          c.add([...p, key], 'BASE_TYPE_MAX', `int value should be less than or equal to ${LIMITS.textInputValue}.`);
        }
      }
    }
  });
}

export function validateChoices(c: FormErrorCollector, data: Record<string, any>): void {
  const choices = Array.isArray(data.choices) ? data.choices : [];
  if (choices.length > LIMITS.autocompleteChoices)
    c.add(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.autocompleteChoices} or fewer in length.`);
  choices.forEach((ch: any, i: number) => {
    maxLen(c, ['data', 'choices', i, 'name'], ch?.name, LIMITS.choiceName);
    maxLen(c, ['data', 'choices', i, 'value'], ch?.value, LIMITS.choiceValue);
  });
}

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

export function validateCommands(c: FormErrorCollector, commands: unknown): void {
  if (!Array.isArray(commands)) {
    c.add([], 'BASE_TYPE_LIST', 'Must be a list.');
    return;
  }
  const names = new Set<string>();
  commands.forEach((cmd: any, i: number) => {
    const type = cmd?.type ?? 1;
    if (typeof cmd?.name !== 'string' || !COMMAND_NAME.test(cmd.name) || (type === 1 && cmd.name !== cmd.name.toLowerCase())) {
      c.add([i, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    }
    if (names.has(`${type}:${cmd?.name}`))
      c.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
    names.add(`${type}:${cmd?.name}`);
    if (type === 1) {
      if (typeof cmd.description !== 'string' || cmd.description.length < 1)
        c.add([i, 'description'], 'BASE_TYPE_REQUIRED', 'This field is required');
      maxLen(c, [i, 'description'], cmd.description, 100);
    }
    validateOptions(c, [i, 'options'], cmd?.options);
  });
}

function validateOptions(c: FormErrorCollector, path: (string | number)[], options: unknown): void {
  if (options === undefined || options === null) return;
  if (!Array.isArray(options)) {
    c.add(path, 'BASE_TYPE_LIST', 'Must be a list.');
    return;
  }
  if (options.length > 25) c.add(path, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  let sawOptional = false;
  options.forEach((o: any, i: number) => {
    if (typeof o?.name !== 'string' || !COMMAND_NAME.test(o.name) || o.name !== o.name.toLowerCase()) {
      c.add([...path, i, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    }
    if (typeof o?.description !== 'string' || o.description.length < 1)
      c.add([...path, i, 'description'], 'BASE_TYPE_REQUIRED', 'This field is required');
    maxLen(c, [...path, i, 'description'], o?.description, 100);
    if (o?.type === 1 || o?.type === 2) {
      validateOptions(c, [...path, i, 'options'], o.options);
      return;
    }
    if (o?.required && sawOptional)
      c.add(
        [...path, i, 'required'],
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
        'Required options must be placed before non-required options',
      );
    if (!o?.required) sawOptional = true;
    if (Array.isArray(o?.choices)) {
      if (o.choices.length > 25) c.add([...path, i, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
      if (o.autocomplete) c.add([...path, i, 'autocomplete'], 'AUTOCOMPLETE_AND_CHOICES', 'Autocomplete cannot be set with choices');
    }
  });
}
