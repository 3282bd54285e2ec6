/** Only the Discord section of `npm run bench`: `npm run bench:discord [-- --games N]`. */
import { flagsOrExit } from './cli.ts';
import { discordSection } from './bench-discord.ts';

const { games } = flagsOrExit('npm run bench:discord', 'Only the Discord section of npm run bench.', {
  games: { kind: 'int', default: 100, min: 1, max: 1000, help: 'Concurrent games.' },
});
await discordSection((line) => console.log(line), games);
