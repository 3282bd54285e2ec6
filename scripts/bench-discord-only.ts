/** Only the Discord section of `npm run bench`: `npm run bench:discord [-- --games N]`. */
import { intFlags } from './args.ts';
import { discordSection } from './bench-discord.ts';

const { games } = intFlags({ games: 100 }, { games: [1, 1000] });
await discordSection((line) => console.log(line), games);
