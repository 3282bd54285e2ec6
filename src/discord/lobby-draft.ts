import { randomUUID } from 'node:crypto';
import * as engine from '../game/index.ts';
import type { GameState, SettingsInput } from '../game/index.ts';
import { err, ok, type Result } from '../result.ts';

export const CHANNEL_TAKEN =
  'This channel already has a game open. Finish it (or ask the host to `/mafia end` it) before creating another.';

/** A person's `/mafia create`: where, by whom, with what settings. */
export interface LobbyRequest {
  readonly channelId: string;
  readonly guildId: string;
  readonly host: { readonly id: string; readonly name: string };
  readonly settings: SettingsInput;
}

/** A new game checked and not yet stored. */
export interface LobbyDraft {
  readonly state: GameState;
  readonly channelId: string;
  readonly guildId: string;
  readonly hostId: string;
}

/** A new game with its host in the first seat, so the lobby is stored with them in one write; refused for bad settings. */
export function draftLobby(request: LobbyRequest, at: number, seed: number): Result<LobbyDraft, string> {
  const created = engine.createGame({ gameId: randomUUID(), seed, settings: request.settings, at });
  if (!created.ok) return err(created.error.message);
  const { id, name } = request.host;
  const seated = engine.join(created.value.state, { player: { id, name, kind: 'human', userId: id }, at });
  if (!seated.ok) return err(seated.error.message);
  return ok({ state: seated.value.state, channelId: request.channelId, guildId: request.guildId, hostId: id });
}
