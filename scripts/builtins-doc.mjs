#!/usr/bin/env node
// Writes the built-ins table of docs/plugins.md from the built plugins themselves (run after
// `node scripts/build.mjs`): every built-in's id, whether the stock build loads it, what it
// contributes and what it needs. test/docs/builtins-doc.test.ts fails when the page is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderBuiltinsTable, withBuiltinsTable } from '../dist/host/builtins-doc.js';

const page = new URL('../docs/plugins.md', import.meta.url);
const table = await renderBuiltinsTable();
const before = readFileSync(page, 'utf8');
const after = withBuiltinsTable(before, table);
if (after === before) console.log('docs/plugins.md: the built-ins table is up to date');
else {
  writeFileSync(page, after);
  console.log('docs/plugins.md: the built-ins table was rewritten');
}
