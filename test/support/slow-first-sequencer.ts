import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (as measured in CI with PostgreSQL): started first on
 * a fresh clone (no timings cached yet, where vitest would order by file size and start a short
 * file such as the soak's near the end), so they overlap the rest instead of running alone at the
 * end. Once vitest has timings, it orders by them.
 */
const SLOW = [
  'test/sharding/sharded-game.test.ts',
  'test/game/properties.test.ts',
  'test/sharding/sharded-bench.test.ts',
  'test/scripts/bench-discord.test.ts',
  'test/main.test.ts',
  'test/agents/player/isolation.test.ts',
  'test/scripts/bench-soak.test.ts',
  'test/agents/player/entitled-facts.property.test.ts',
  'test/sharding/sharding-manager.test.ts',
  'test/db/pglite-directory.test.ts',
  'test/agents/heuristic-word.test.ts',
  'test/agents/editor/editor-service.test.ts',
  'test/scripts/arena.test.ts',
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cached = sorted.some((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${this.relative(file)}`));
    if (cached) return sorted;
    const rank = (file: TestSpecification) => {
      const at = SLOW.indexOf(this.relative(file));
      return at === -1 ? SLOW.length : at;
    };
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }

  private relative(file: TestSpecification): string {
    return file.moduleId.slice(this.ctx.config.root.length + 1);
  }
}
