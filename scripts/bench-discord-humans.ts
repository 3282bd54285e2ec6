/**
 * The simulated people of one benchmark game: the host opens a lobby by slash command, the others
 * join by button, the host seats the AI personas and starts; in play they pick from their night
 * menus, talk by day and vote from the vote message. Every interaction handle is kept for its
 * acknowledgement latency.
 */
import type { GameState } from '../src/game/index.ts';
import type { Bot } from '../src/bot.ts';
import type { LiveGame } from '../src/discord/live-game.ts';
import { NIGHT_SELECT, SKIP_VALUE } from '../src/discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE, VOTE_SELECT } from '../src/discord/presenters/vote.ts';
import { SimUserError, type DiscordSim, type InteractionHandle, type SimMessage, type SimUser } from './fakes/discord/index.ts';
import { openLobby } from './bench-discord-people.ts';
import type { Seating } from './bench-discord-world.ts';

function selectOptions(m: SimMessage, customId: string): string[] {
  for (const row of m.components as { components?: { custom_id?: string; options?: { value: string }[] }[] }[]) {
    for (const c of row.components ?? []) {
      if (c.custom_id === customId || c.custom_id?.startsWith(`${customId}:`)) return (c.options ?? []).map((o) => o.value);
    }
  }
  return [];
}

export class BenchGame {
  liveGame: LiveGame | null = null;
  /** Why the lobby could not be opened and started (the game is then left out of play). */
  failed: string | null = null;
  /** The phase (and day) the humans last played, so each phase is played once. */
  private played = '';
  private readonly usedMenus = new Set<string>();

  constructor(
    private readonly sim: DiscordSim,
    private readonly bot: Bot,
    readonly seating: Seating,
    private readonly handles: InteractionHandle[],
  ) {}

  private user(name: string): SimUser {
    return this.sim.user(name);
  }

  private track(handle: InteractionHandle): InteractionHandle {
    this.handles.push(handle);
    return handle;
  }

  get state(): GameState {
    if (!this.liveGame) throw new Error(`no game in channel ${this.seating.channelId} yet`);
    return this.liveGame.state;
  }

  get ended(): boolean {
    return this.liveGame?.state.phase === 'ended';
  }

  /** Still to be played: opened, started and not over. */
  get playing(): boolean {
    return this.failed === null && this.liveGame !== null && !this.ended;
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
    const gameId = await openLobby(this.sim, this.seating, {}, (h) => this.track(h));
    const liveGame = this.bot.liveGames.liveGame(gameId);
    if (!liveGame) throw new Error(`/mafia create answered in ${this.seating.channelId} but no game ${gameId} is open`);
    this.liveGame = liveGame;
  }

  /** Started: role cards sent, AI seats driven, Mafia thread open. */
  running(): boolean {
    return this.liveGame !== null && this.liveGame.driver !== null && this.liveGame.mafiaThreadId !== null;
  }

  /** The humans play the current phase, once per phase. */
  async play(): Promise<void> {
    if (!this.liveGame || !this.playing) return;
    const s = this.liveGame.state;
    const key = `${s.phase}:${s.day}`;
    if (key === this.played) return;
    this.played = key;
    const alive = this.seating.humans.filter((name) => this.seat(s, name)?.alive);
    if (s.phase === 'night') await Promise.all(alive.map((name) => this.pickAtNight(name)));
    else if (s.phase === 'day')
      for (const name of alive) this.user(name).say({ id: this.seating.channelId }, `${name} thinks someone is lying.`);
    else if (s.phase === 'vote') await Promise.all(alive.map((name) => this.vote(name)));
    else if (s.phase === 'last_words') {
      const lynched = s.players.find((p) => p.id === s.lynchedToday);
      if (lynched?.kind === 'human') this.user(lynched.name).say({ id: this.seating.channelId }, 'I was innocent, I swear.');
    }
  }

  private seat(s: GameState, name: string) {
    const id = this.user(name).id;
    return s.players.find((p) => p.userId === id);
  }

  private async pickAtNight(name: string): Promise<void> {
    const customId = `${NIGHT_SELECT}:${this.state.id}`;
    const menu = this.sim
      .dmsTo(name)
      .filter((m) => selectOptions(m, customId).length > 0)
      .at(-1);
    if (!menu || this.usedMenus.has(menu.id)) return;
    this.usedMenus.add(menu.id);
    const choice = selectOptions(menu, customId).find((v) => v !== SKIP_VALUE) ?? SKIP_VALUE;
    await this.acknowledged(() => this.user(name).select(menu, customId, [choice]));
  }

  private async vote(name: string): Promise<void> {
    const messageId = this.liveGame?.voteMessageId;
    const message = messageId ? this.sim.world.messages.get(messageId) : undefined;
    const me = this.seat(this.state, name);
    if (!message || !me) return;
    const customId = `${VOTE_SELECT}:${this.state.id}`;
    const choice = selectOptions(message, customId).find((v) => v !== me.id && v !== NO_LYNCH_VALUE);
    if (choice) await this.acknowledged(() => this.user(name).select(message, customId, [choice]));
  }

  /**
   * Waits for the bot's acknowledgement. The AI seats act at the same time, so a phase may close under a
   * click: the bot then refuses it (still an answered interaction), or the menu is already gone and
   * the Discord client would not have let the person click at all. An interaction the bot failed
   * to acknowledge in time is not fatal: it is counted.
   */
  private async acknowledged(start: () => InteractionHandle): Promise<void> {
    let handle: InteractionHandle;
    try {
      handle = start();
    } catch (e) {
      if (e instanceof SimUserError) return;
      throw e;
    }
    // Only the acknowledgement: under discord.js's REST cap the answer itself may queue for long, and
    // hundreds of people polling for it would load the process whose latency is being measured.
    await this.track(handle)
      .ack()
      .catch(() => undefined);
  }
}
