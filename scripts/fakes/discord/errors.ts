/** Errors shaped like Discord's JSON error bodies: `{ message, code, errors? }`. */

interface FieldError {
  code: string;
  message: string;
}

/** Nested form-body errors: `{ content: { _errors: [...] }, embeds: { 0: { title: { _errors } } } }`. */
export type FormErrors = { _errors?: FieldError[] } & { [key: string]: FormErrors | FieldError[] | undefined };

/** What a person's Discord client would not let them do: thrown synchronously, nothing reaches the bot. */
export class SimUserError extends Error {}

export class DiscordHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: FormErrors,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return this.errors ? { message: this.message, code: this.code, errors: this.errors } : { message: this.message, code: this.code };
  }
}

export const unauthorized = () => new DiscordHttpError(401, 0, '401: Unauthorized');
export const unknownChannel = () => new DiscordHttpError(404, 10003, 'Unknown Channel');
export const unknownGuild = () => new DiscordHttpError(404, 10004, 'Unknown Guild');
export const unknownMember = () => new DiscordHttpError(404, 10007, 'Unknown Member');
export const unknownMessage = () => new DiscordHttpError(404, 10008, 'Unknown Message');
export const unknownOverwrite = () => new DiscordHttpError(404, 10009, 'Unknown Overwrite');
export const unknownUser = () => new DiscordHttpError(404, 10013, 'Unknown User');
export const unknownWebhook = () => new DiscordHttpError(404, 10015, 'Unknown Webhook');
export const unknownInteraction = () => new DiscordHttpError(404, 10062, 'Unknown interaction');
export const unknownCommand = () => new DiscordHttpError(404, 10063, 'Unknown application command');
export const missingAccess = () => new DiscordHttpError(403, 50001, 'Missing Access');
export const missingPermissions = () => new DiscordHttpError(403, 50013, 'Missing Permissions');
export const cannotDmUser = () => new DiscordHttpError(403, 50007, 'Cannot send messages to this user');
export const cannotEditOthers = () => new DiscordHttpError(403, 50005, 'Cannot edit a message authored by another user');
export const emptyMessage = () => new DiscordHttpError(400, 50006, 'Cannot send an empty message');
export const alreadyAcknowledged = () => new DiscordHttpError(400, 40060, 'Interaction has already been acknowledged.');
export const notFound = () => new DiscordHttpError(404, 0, '404: Not Found');
export const methodNotAllowed = () => new DiscordHttpError(405, 0, '405: Method Not Allowed');
export const threadArchived = () => new DiscordHttpError(400, 50083, 'Thread is archived');
export const maxWebhooks = () => new DiscordHttpError(400, 30007, 'Maximum number of webhooks reached (15)');

/** Collects field errors at paths like ['embeds', 0, 'title'] into Discord's nested shape. */
export class FormErrorCollector {
  private root: FormErrors = {};
  private count = 0;

  add(path: (string | number)[], code: string, message: string): void {
    let node: FormErrors = this.root;
    for (const key of path) {
      const k = String(key);
      const next = (node[k] as FormErrors | undefined) ?? {};
      node[k] = next;
      node = next;
    }
    (node._errors ??= []).push({ code, message });
    this.count++;
  }

  get size(): number {
    return this.count;
  }

  /** Throws a 400 Invalid Form Body (50035) when anything was collected. */
  throwIfAny(): void {
    if (this.count > 0) throw new DiscordHttpError(400, 50035, 'Invalid Form Body', this.root);
  }
}

/** Shorthand for a single invalid field. */
export function invalidForm(path: (string | number)[], code: string, message: string): DiscordHttpError {
  const c = new FormErrorCollector();
  c.add(path, code, message);
  return new DiscordHttpError(400, 50035, 'Invalid Form Body', (c as unknown as { root: FormErrors }).root);
}
