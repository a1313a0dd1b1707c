#!/usr/bin/env node
// Writes docs/api.md's error tables (the host's own errors, the core's codes, the built-in
// plugins' codes) from the error catalogues, between their markers. Run after a build:
//   node scripts/build.mjs && node scripts/error-table.mjs
// test/docs/error-table.test.ts fails while the page and the catalogues disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { errorTables, withErrorTables } = await import(join(root, 'dist/core/errors/table.js'));
const { pluginErrorCatalogues } = await import(join(root, 'dist/plugins/error-catalogues.js'));
const file = join(root, 'docs/api.md');
const before = readFileSync(file, 'utf8');
const after = withErrorTables(before, errorTables(pluginErrorCatalogues));
if (after === before) console.log('docs/api.md: error tables already match the catalogues');
else {
  writeFileSync(file, after);
  console.log('docs/api.md: error tables rewritten from the catalogues');
}
