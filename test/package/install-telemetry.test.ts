import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';

// swagger-ui-dist depends on @scarf/scarf, whose postinstall reports every install to a third
// party unless the root package opts out. `npm install` of this repository must send nothing.
const test = suite('package.json: no install-time telemetry');

type Manifest = { scarfSettings?: { enabled?: unknown }; allowScripts?: Record<string, unknown> };
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

test('Scarf is switched off by its documented opt-out', () => {
  assert.equal(manifest.scarfSettings, { enabled: false });
});

test("Scarf's install script is not allowed to run", () => {
  assert.is(manifest.allowScripts?.['@scarf/scarf'], false);
});

test.run();
