// Issue 54: docs/plugins.md lists every built-in (id, default or optional, what it
// contributes, what it needs), generated from the plugins as they load, never by hand: this
// fails when a built-in is added, removed or changes what it contributes and the page was
// not regenerated.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';
import { renderBuiltinsTable, withBuiltinsTable } from '../../host/builtins-doc.js';
import { defaultPlugins, optionalPlugins } from '../../plugins/index.js';

const test = suite('docs/plugins.md: the built-ins table');

test('the table is what the built-ins contribute now (node scripts/builtins-doc.mjs rewrites it)', async () => {
  const page = readFileSync(join(repoRoot, 'docs/plugins.md'), 'utf8');
  const table = await renderBuiltinsTable();
  assert.ok(
    withBuiltinsTable(page, table) === page,
    'docs/plugins.md is stale: run node scripts/build.mjs && node scripts/builtins-doc.mjs',
  );
});

test('every built-in has a row, with whether the stock build loads it', async () => {
  const page = readFileSync(join(repoRoot, 'docs/plugins.md'), 'utf8');
  for (const plugin of defaultPlugins) assert.match(page, `| \`${plugin.id}\` | default |`);
  for (const id of Object.keys(optionalPlugins)) assert.match(page, `| \`${id}\` | optional (\`FLOWHOST_PLUGINS=${id}\`) |`);
  assert.match(page, /\| `discovery` \| default \| .*API surfaces: `discovery`/);
  assert.match(page, /\| `steps-core` \| default \| .*step types: `fetch`, `ai`, `publish`, `update`/);
});

test.run();
