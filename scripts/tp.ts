import { playHeadless } from '../src/session/headless-game.ts';
import { houseSeats } from '../src/agents/seats.ts';
const seats = houseSeats(7);
for (let s = 0; s < 200; s++) await playHeadless({ gameId: 'w'+s, seed: 1e6+s, seats });
const t = performance.now(); const n = 1500;
for (let s = 0; s < n; s++) { const r = await playHeadless({ gameId: 'g'+s, seed: s, seats }); if (!r.ok) throw new Error(r.error); }
console.log('new games/s', (n / ((performance.now() - t) / 1000)).toFixed(0));
