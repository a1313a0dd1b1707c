// `flowhost mcp-servers list|add|remove|tools` on both stores: the token from standard input,
// never printed; --json throughout; tools listed live from a fake MCP server on loopback;
// remove asks (refused without a terminal) unless --yes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import type { Host } from '../../../host/host.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeMcpServer, type FakeMcpServer } from '../../support/fake-mcp-server.js';

const TOKEN = 'cli-mcp-token-0123456789abcdef';

for (const store of testStores('mcp-servers cli')) {
  type Ctx = { host: Host; dataDir: string; mcp: FakeMcpServer };
  const test = suite<Ctx>(`mcp-servers cli (${store.label})`);
  const cli = (ctx: Ctx, args: string[], stdin?: string) => cliInProcess([...args, '--data-dir', ctx.dataDir], stdin ? { stdin } : {});
  test.before(async (ctx) => {
    ctx.mcp = await startFakeMcpServer();
    Object.assign(ctx, await startCliHost({ ...store.config(), allowPrivateUrls: true }));
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    await ctx.mcp.close();
    rmSync(ctx.dataDir, { recursive: true, force: true });
  });

  test('add, list, tools and remove, the token never printed', async (ctx) => {
    const add = await cli(
      ctx,
      ['mcp-servers', 'add', 'archive', ctx.mcp.url, '--allow', 'search', '--token-stdin', '--json'],
      `${TOKEN}\n`,
    );
    assert.is(add.status, 0, add.stderr);
    const added = JSON.parse(add.stdout);
    assert.equal([added.name, added.auth, added.allowed_tools], ['archive', { type: 'bearer', token: '••••••••' }, ['search']]);

    const list = await cli(ctx, ['mcp-servers', 'list']);
    assert.is(list.status, 0, list.stderr);
    assert.match(list.stdout, /archive\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+auth: bearer\s+tools: search/);

    const tools = await cli(ctx, ['mcp-servers', 'tools', 'archive', '--json']);
    assert.is(tools.status, 0, tools.stderr);
    assert.equal(
      JSON.parse(tools.stdout).tools.map((t: { name: string; allowed: boolean }) => [t.name, t.allowed]),
      [
        ['search', true],
        ['delete_all', false],
      ],
    );
    assert.ok(
      ctx.mcp.requests.some((r) => r.headers.authorization === `Bearer ${TOKEN}`),
      'the token from stdin was sent',
    );

    const refused = await cli(ctx, ['mcp-servers', 'remove', 'archive']);
    assert.is(refused.status, 1);
    assert.match(refused.stderr, /--yes/);
    const removed = await cli(ctx, ['mcp-servers', 'remove', 'archive', '--yes', '--json']);
    assert.is(removed.status, 0, removed.stderr);
    const missing = await cli(ctx, ['mcp-servers', 'tools', 'archive']);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /No MCP server named 'archive'/);
    for (const out of [add, list, tools, removed, refused]) assert.not.ok(`${out.stdout}${out.stderr}`.includes(TOKEN));
  });

  test.run();
}
