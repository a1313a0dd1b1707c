// Every budget the webhook trigger enforces is written where senders (docs/api.md) and
// operators (docs/operations.md) read about the trigger: a budget added or changed in code
// without its line in both pages fails here.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAILURE_BUDGETS } from '../../core/webhooks/trigger-limits.js';
import { repoRoot } from '../support/host-process.js';

const test = suite('docs: the webhook trigger failure budgets');

for (const page of ['docs/api.md', 'docs/operations.md']) {
  test(`${page} states every failure budget of the trigger`, () => {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    assert.ok(FAILURE_BUDGETS.length >= 1);
    for (const budget of FAILURE_BUDGETS) {
      const stated = `${budget.points} per ${budget.windowSeconds / 60} min`;
      assert.ok(text.includes(stated), `${page} does not say "${stated}" (${budget.scope})`);
    }
  });
}

test.run();
