/** Snowflake ids as Discord makes them: ms since the Discord epoch << 22, plus a counter. */
const DISCORD_EPOCH = 1420070400000n;

export class Snowflakes {
  private counter = 0n;
  next(at: number = Date.now()): string {
    this.counter = (this.counter + 1n) & 0x3fffffn;
    return (((BigInt(at) - DISCORD_EPOCH) << 22n) | this.counter).toString();
  }
}

export function randomToken(length = 40): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';
  let out = '';
  for (let i = 0; i < length; i++) out += chars.charAt(Math.floor(Math.random() * chars.length));
  return out;
}
