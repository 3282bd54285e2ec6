/**
 * The people of one benchmark game as Discord shows it to them, nothing else: for bots in other
 * processes, whose games this process cannot look into. The host opens a lobby by slash command, the
 * others join by button, the host seats the AI personas and starts; then each person picks from
 * every night menu that reaches their DMs and votes once on every vote message in the channel
 * (when their own name is still among the living it lists). Every interaction handle is kept for its
 * acknowledgement latency; nobody waits on one in play (the bench reads them all afterwards).
 */
import { NIGHT_SELECT, SKIP_VALUE } from '../src/discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE, VOTE_SELECT } from '../src/discord/presenters/vote.ts';
import { SimUserError, type DiscordSim, type InteractionHandle, type OptionValue, type SimMessage } from './fakes/discord/index.ts';
import type { Seating } from './bench-discord-world.ts';

interface SelectMenu {
  readonly customId: string;
  readonly options: readonly { value: string; label: string }[];
}

function selectMenu(m: SimMessage, prefix: string): SelectMenu | null {
  for (const row of m.components as { components?: { custom_id?: string; options?: { value: string; label: string }[] }[] }[]) {
    for (const c of row.components ?? []) {
      if (c.custom_id === prefix || c.custom_id?.startsWith(`${prefix}:`)) return { customId: c.custom_id, options: c.options ?? [] };
    }
  }
  return null;
}

function customIds(m: SimMessage): string[] {
  const rows = m.components as { components?: { custom_id?: string }[] }[];
  return rows.flatMap((row) => (row.components ?? []).flatMap((c) => (c.custom_id ? [c.custom_id] : [])));
}

/** New messages of one channel since the last look (a cursor over the simulator's record of it). */
class ChannelReader {
  private seen = 0;

  constructor(
    private readonly sim: DiscordSim,
    private readonly channelId: () => string | undefined,
  ) {}

  next(): SimMessage[] {
    const id = this.channelId();
    const ids = id === undefined ? [] : (this.sim.world.channelMessages.get(id) ?? []);
    const fresh = ids.slice(this.seen);
    this.seen = ids.length;
    return fresh.flatMap((mid) => {
      const m = this.sim.world.messages.get(mid);
      return m && !m.deleted ? [m] : [];
    });
  }
}

/** The message a game ends with, every role revealed under who won (`src/discord/presenters/announce.ts`). */
const END_TITLE = /^(The (Town|Mafia) win!|A draw|Game called off)$/;

export class RemoteTable {
  gameId: string | null = null;
  /** Why the lobby could not be opened and started (the game is then left out of play). */
  failed: string | null = null;
  /** The channel showed the game's end (as far as people can tell; the database has the last word). */
  ended = false;
  private readonly dms: Map<string, ChannelReader>;
  private readonly channel: ChannelReader;

  constructor(
    private readonly sim: DiscordSim,
    readonly seating: Seating,
    /** Rules the host sets with /mafia create (e.g. short phases). */
    private readonly createOptions: Readonly<Record<string, OptionValue>>,
    private readonly handles: InteractionHandle[],
  ) {
    this.dms = new Map(seating.humans.map((name) => [name, new ChannelReader(sim, () => sim.world.dmChannels.get(sim.user(name).id))]));
    this.channel = new ChannelReader(sim, () => seating.channelId);
  }

  private track(handle: InteractionHandle): InteractionHandle {
    this.handles.push(handle);
    return handle;
  }

  /** Lobby by slash command, joins by button, AI seats by slash command, start by button. */
  async open(): Promise<void> {
    try {
      await this.openOrThrow();
    } catch (e) {
      this.failed = e instanceof Error ? e.message : String(e);
    }
  }

  private async openOrThrow(): Promise<void> {
    this.gameId = await openLobby(this.sim, this.seating, this.createOptions, (h) => this.track(h));
  }

  /** Each person answers what reached them since the last look: night menus by DM, the channel's vote message. */
  react(): void {
    if (this.gameId === null || this.failed !== null) return;
    for (const [name, reader] of this.dms) {
      for (const m of reader.next()) {
        const menu = selectMenu(m, `${NIGHT_SELECT}:${this.gameId}`);
        const choice = menu?.options.find((o) => o.value !== SKIP_VALUE)?.value ?? SKIP_VALUE;
        if (menu) this.fire(() => this.sim.user(name).select(m, menu.customId, [choice]));
      }
    }
    for (const m of this.channel.next()) {
      if (m.embeds.some((e) => typeof e.title === 'string' && END_TITLE.test(e.title))) this.ended = true;
      const menu = selectMenu(m, `${VOTE_SELECT}:${this.gameId}`);
      if (!menu) continue;
      for (const name of this.seating.humans) {
        // The vote lists the living: someone not among them is dead and does not vote.
        if (!menu.options.some((o) => o.label === name)) continue;
        const choice = menu.options.find((o) => o.label !== name && o.value !== NO_LYNCH_VALUE)?.value;
        if (choice) this.fire(() => this.sim.user(name).select(m, menu.customId, [choice]));
      }
    }
  }

  /** Starts an interaction; one the Discord client would not have let the person start (a menu gone) is skipped. */
  private fire(start: () => InteractionHandle): void {
    try {
      this.track(start());
    } catch (e) {
      if (!(e instanceof SimUserError)) throw e;
    }
  }
}

/**
 * The host opens a lobby by slash command, the others join by button, the host seats the AI
 * personas by slash command and starts by button, each waiting for the bot's answer as a person
 * would. Returns the game's id (read from the Join button).
 */
export async function openLobby(
  sim: DiscordSim,
  seating: Seating,
  createOptions: Readonly<Record<string, OptionValue>>,
  track: (handle: InteractionHandle) => InteractionHandle,
): Promise<string> {
  const channel = { id: seating.channelId };
  const [host, ...guests] = seating.humans;
  if (host === undefined) throw new Error(`the game in ${seating.channelId} has no human to host it`);
  const lobby = await track(sim.user(host).slash(channel, 'mafia', { subcommand: 'create', options: createOptions })).public();
  const join = customIds(lobby).find((id) => id.startsWith('lobby:join:'));
  const gameId = join?.split(':')[2];
  if (join === undefined || gameId === undefined) throw new Error(`/mafia create answered in ${seating.channelId} without a Join button`);
  for (const guest of guests) await track(sim.user(guest).click(lobby, join)).updated();
  for (const persona of seating.personas) {
    await track(sim.user(host).slash(channel, 'mafia', { subcommand: 'add-ai', options: { persona } })).ephemeral();
  }
  await track(sim.user(host).click(lobby, `lobby:start:${gameId}`)).updated();
  return gameId;
}
