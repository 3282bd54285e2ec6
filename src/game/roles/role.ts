import type { GameState, PlayerId, PlayerState } from '../state.ts';

export type Faction = 'town' | 'mafia' | 'neutral';

/** Night actions resolve in this fixed order: protect, kill, shoot, investigate. */
type NightActionKind = 'protect' | 'kill' | 'shoot' | 'investigate';

interface TargetCheck {
  readonly state: GameState;
  readonly actor: PlayerState;
  /** null means the actor chose to skip. */
  readonly target: PlayerState | null;
}

/** What the nights so far leave for later nights' target rules; the fields are GameState's own. */
export interface NightMemory {
  readonly lastProtected: GameState['lastProtected'];
  readonly shotsUsed: GameState['shotsUsed'];
}

export interface RoleDefinition<Id extends string = string> {
  readonly id: Id;
  readonly name: string;
  readonly faction: Faction;
  /** One line for role lists. */
  readonly summary: string;
  /** The role card: what the role does and how it wins. */
  readonly card: string;
  readonly nightAction: NightActionKind | null;
  /** What a Detective learns on investigating this role. */
  readonly investigatedAs: 'mafia' | 'innocent';
  /** May the role target itself at night? */
  readonly selfTarget: boolean;
  /** Role-specific target rules beyond "alive and in the game": a reason a person can read, or null. */
  readonly checkTarget?: (check: TargetCheck) => string | null;
  /** Whether the role still has a usable action tonight (e.g. shots left). */
  readonly canActTonight?: (state: GameState, actor: PlayerState) => boolean;
  /**
   * Folded when a night resolves, for each player of the role, living or dead: notes what tonight's
   * action means for later nights' rules. `targetId` is null when the actor skipped or sent nothing.
   */
  readonly rememberNight?: (memory: NightMemory, actor: PlayerState, targetId: PlayerId | null) => NightMemory;
}

export function defineRole<const Id extends string>(role: RoleDefinition<Id>): RoleDefinition<Id> {
  return role;
}
