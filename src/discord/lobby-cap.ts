/** What the cap reads of a live game. */
interface HostedGame {
  readonly hostId: string;
  readonly channelId: string;
  readonly state: { readonly phase: string };
}

/**
 * Why this person may not open another lobby, or null: they host `perHost` open lobbies already
 * (counted over the games this process holds, in every channel and server). Names where those are.
 */
export function lobbyCapRefusal(live: readonly HostedGame[], hostId: string, perHost: number): string | null {
  const hosted = live.filter((t) => t.hostId === hostId && t.state.phase === 'lobby');
  if (hosted.length < perHost) return null;
  const where = hosted.map((t) => `<#${t.channelId}>`).join(', ');
  const [most, next] =
    perHost === 1
      ? ['one open lobby', 'Start it, or `/mafia end` it there']
      : [`${perHost} open lobbies`, 'Start one of them, or `/mafia end` one there'];
  return `You already host ${most}, the most one person may at once: ${where}. ${next}, before creating another. An idle lobby also closes by itself.`;
}
