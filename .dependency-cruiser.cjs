/**
 * The import structure `npm run lint` holds the code to: no cycles (type-only imports count), and
 * each layer of src/ imports only the layers below it. Order, lowest first (docs/architecture.md, Layers):
 */
const LAYERS = [
  ['base', '^src/(result|clock|log|config|database-url|chunk-markdown|models)\\.ts$'],
  ['game', '^src/game/'],
  ['persona', '^src/persona/'],
  ['llm', '^src/llm/'],
  ['db', '^src/db/'],
  ['agents', '^src/agents/'],
  ['report', '^src/report/'],
  ['session', '^src/session/'],
  ['discord', '^src/discord/'],
  ['interactions', '^src/interactions/'],
  ['app', '^src/(bot|main)\\.ts$'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `${name}-imports-upward`,
  comment: `${name} may import only the layers below it: ${
    LAYERS.slice(0, i)
      .map(([n]) => n)
      .join(', ') || 'none'
  }`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only or not, ties its files into one: break it with a lower module both can import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'src-imports-scripts-or-tests',
      comment: 'The bot never imports its benchmarks, fakes or tests.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test)/' },
    },
    {
      name: 'scripts-import-tests',
      comment: 'What the benchmarks and demo share with tests lives in src/ or scripts/, never in test/.',
      severity: 'error',
      from: { path: '^scripts/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/db/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
