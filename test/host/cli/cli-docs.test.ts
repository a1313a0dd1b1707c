// docs/cli.md is the CLI's map of the API: every route of the core namespace is listed with
// the command that does it (or why there is none), and every command it names exists.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { readHostFile } from '../../../host/runtime/data-dir-files.js';
import { repoRoot } from '../../support/host-process.js';

const test = suite('docs/cli.md: a command for every route');
const page = readFileSync(join(repoRoot, 'docs/cli.md'), 'utf8');

test('every route of the core namespace is in docs/cli.md', async () => {
  const { host, dataDir } = await startCliHost({});
  let routes: string[];
  try {
    const info = readHostFile(dataDir)!;
    const spec = (await (await fetch(`${info.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const prefix = '/api/automation/v1';
    routes = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith(`${prefix}/`))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.slice(prefix.length)}`));
  } finally {
    await host.stop();
  }
  assert.ok(routes.length > 50, `only ${routes.length} routes`);
  const missing = routes.filter((route) => !page.includes(`\`${route}\``));
  assert.equal(missing, [], 'routes docs/cli.md does not list');
});

test('every command docs/cli.md names exists', async () => {
  const commands = new Map<string, Set<string>>();
  for (const m of page.matchAll(/`flowhost ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)) {
    if (!commands.has(m[1]!)) commands.set(m[1]!, new Set());
    if (m[2]) commands.get(m[1]!)!.add(m[2]);
  }
  // The completions yargs answers, as the real CLI does (buildCli), in process.
  const nouns = (await cliInProcess(['--get-yargs-completions', 'flowhost', ''])).stdout.split('\n');
  for (const [noun, verbs] of commands) {
    assert.ok(nouns.includes(noun), `no noun '${noun}'`);
    if (verbs.size === 0) continue;
    const offered = (await cliInProcess(['--get-yargs-completions', 'flowhost', noun, ''])).stdout.split('\n');
    // A noun with no verbs (serve, chat, export) completes options, not words: its "verb" is an argument.
    if (!offered.some((w) => /^[a-z]/.test(w))) continue;
    for (const verb of verbs) assert.ok(offered.includes(verb), `no verb 'flowhost ${noun} ${verb}'`);
  }
});

test.run();
