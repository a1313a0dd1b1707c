// A plugin loaded by path from its own folder, whose node_modules holds its own copy of
// flowhost (a development install: `npm install -D ../flowhost-1.0.0.tgz`). Its service
// references, plugin definition and replies come from that copy, not the host's: they
// must still match by id and brand, and the plugin must load and work.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';
import { resolvePlugins } from '../../host/plugin-resolver.js';
import { createTestHost } from '../../sdk/testing/index.js';

const test = suite('sdk: a plugin with its own copy of flowhost');

const folder = mkdtempSync(join(tmpdir(), 'flowhost-second-copy-'));
const copy = join(folder, 'node_modules/flowhost');
mkdirSync(copy, { recursive: true });
for (const part of ['core', 'host', 'sdk', 'plugins']) cpSync(join(repoRoot, 'dist', part), join(copy, 'dist', part), { recursive: true });
cpSync(join(repoRoot, 'package.json'), join(copy, 'package.json'));
// The copy's own dependencies (tsyringe, ajv...): this repository's, as an install would have them.
symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'copy-plugin', type: 'module' }));
writeFileSync(
  join(folder, 'index.js'),
  `import { definePlugin, defineHandler, defineSurface, reply, services, successBody } from 'flowhost';
export default definePlugin({
  id: 'copy', version: '1.0.0', flowhost: '^1.0.0',
  deps: { handlers: services.handlers, routes: services.routes },
  setup({ handlers, routes }) {
    handlers.add(defineHandler({ slug: 'copy', type: 'fetch', label: 'Copy', description: 'One item.',
      fetch: async () => [{ type: 'copy', data: { title: 'from the copy' }, metadata: { item_id: 'one' } }] }));
    routes.add(defineSurface({ id: 'copy', namespace: 'copy/v1', routes: [
      { method: 'GET', path: '/ping', permission: 'authenticated', schema: { responses: { 201: successBody({ data: { type: 'string' } }) } },
        handle: () => reply(201, { success: true, data: 'pong' }) },
    ] }));
  },
});
`,
);

test.after(() => rmSync(folder, { recursive: true, force: true }));

test('loads by path; its handler runs in a flow and its route answers', async () => {
  const plugins = await resolvePlugins([join(folder, 'index.js')], {});
  const t = await createTestHost({ plugins });
  try {
    const handlers = await t.request<{ data: Record<string, { type: string }> }>('GET', '/handlers');
    assert.is(handlers.body.data.copy?.type, 'fetch');
    const job = await t.executeAndWait({ workflow: { steps: [{ type: 'fetch', handler_slug: 'copy' }] } });
    assert.is(job.status, 'completed');
    const ping = await t.request<{ data: string }>('GET', '/ping', { namespace: 'copy/v1' });
    assert.is(ping.status, 201);
    assert.is(ping.body.data, 'pong');
  } finally {
    await t.stop();
  }
});

test.run();
