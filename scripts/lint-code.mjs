#!/usr/bin/env node
// `npm run lint:code`: eslint over the tree, with its cache outside CI. The cache keys on each
// file's own content, so a type-aware rule can miss what an edit to another file changed; CI
// (a fresh clone, CI=true) always lints from scratch.
import { ESLint } from 'eslint';

const cached = process.env.CI !== 'true';
const eslint = new ESLint({
  cache: cached,
  cacheStrategy: 'content',
  cacheLocation: 'node_modules/.cache/eslint/',
});
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const report = await formatter.format(results);
if (report) console.log(report);
process.exitCode = results.some((r) => r.errorCount > 0 || r.fatalErrorCount > 0) ? 1 : 0;
