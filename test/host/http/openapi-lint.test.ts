// The served openapi.json under a real validator: Redocly CLI's `lint` with the repository's
// redocly.yaml (the recommended ruleset, one documented rule off), run offline against the
// document a host with every plugin serves. Any error or warning fails, as does any attempt
// of the CLI to reach the network.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { redoclyLint, repoRoot, servedOpenApi } from '../../support/served-openapi.js';

const test = suite<{ t: TestHost; dir: string }>('host: openapi.json passes Redocly lint');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: Object.values(optionalPlugins) });
  ctx.dir = await mkdtemp(join(tmpdir(), 'flowhost-openapi-lint-'));
});
test.after(async (ctx) => {
  await ctx.t.stop();
  await rm(ctx.dir, { recursive: true, force: true });
});

test('the served document has no Redocly error or warning, and the CLI stays offline', async ({ t, dir }) => {
  const { text } = await servedOpenApi(t.url);
  const file = join(dir, 'openapi.json');
  await writeFile(file, text);
  const { problems, networkAttempts } = await redoclyLint(file);
  const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
  assert.equal(lines, [], `redocly lint:\n  ${lines.join('\n  ')}`);
  assert.equal(networkAttempts, []);
});

test('redocly.yaml turns off only the rules docs/response-schemas.md names as not about validity', async () => {
  const config = parse(await readFile(join(repoRoot, 'redocly.yaml'), 'utf8')) as {
    extends: string[];
    rules?: Record<string, unknown>;
    telemetry?: string;
  };
  assert.equal(config.extends, ['recommended']);
  const off = Object.entries(config.rules ?? {})
    .filter(([, v]) => v === 'off')
    .map(([k]) => k);
  assert.equal(off, ['operation-4xx-response']);
  assert.is(config.telemetry, 'off');
  const docs = await readFile(join(repoRoot, 'docs/response-schemas.md'), 'utf8');
  for (const rule of off) assert.match(docs, rule);
});

test.run();
