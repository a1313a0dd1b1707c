// Handler secrets reach `flowhost flows create|config` on standard input or from a file,
// never on the command line (where `ps` and shell history show them): --set refuses a
// secret-named setting, --set-secret reads it (issue 52).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { testStores } from '../../support/test-stores.js';
import type { Host } from '../../../host/host.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const SECRET = 'abcd efgh ijkl mnop';
const FILE_SECRET = 'file-secret-0123456789';

for (const store of testStores('cli: secret settings')) {
  type Ctx = { host: Host; dataDir: string; pipelineId: number };
  const test = suite<Ctx>(`cli: handler secrets from standard input or a file (${store.label})`);

  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config()));
    const pipeline = await hostApi(ctx.dataDir, 'POST', '/pipelines', { pipeline_name: 'Secrets', steps: [{ step_type: 'fetch' }] });
    ctx.pipelineId = (pipeline.body as Body).data.pipeline_id;
  });
  test.after(async ({ host }) => host.stop());

  /** The step's settings as the engine opens them for a run. */
  const opened = async (host: Host, flowId: number): Promise<Body> => {
    const flow = await host.flows.get(flowId);
    return host.flows.secrets.open(Object.values(flow.steps)[0]!.handler_config);
  };

  test('--set refuses a secret without echoing it; --set-secret reads standard input', async ({ host, dataDir, pipelineId }) => {
    const base = [
      'flows',
      'create',
      String(pipelineId),
      '--handler',
      '1=cms-api',
      '--set',
      '1.api_url=https://remote.example/wp-json/wp/v2',
    ];
    const onArgv = await runCli({ dataDir }, [...base, '--set', `1.app_password=${SECRET}`]);
    assert.is(onArgv.status, 1);
    assert.match(
      onArgv.stderr,
      /app_password is a secret, and the command line is visible in ps and shell history; give it with --set-secret 1\.app_password/,
    );
    assert.not.match(onArgv.stderr + onArgv.stdout, 'efgh');
    const inline = await runCli({ dataDir }, [...base, '--set-secret', `1.app_password=${SECRET}`]);
    assert.is(inline.status, 1);
    assert.match(inline.stderr, /never on the command line/);
    assert.not.match(inline.stderr + inline.stdout, 'efgh');
    const empty = await runCli({ dataDir }, [...base, '--set-secret', '1.app_password']);
    assert.is(empty.status, 1);
    assert.match(empty.stderr, /--set-secret 1\.app_password: the value is empty \(nothing on standard input\)/);
    const flows = await hostApi(dataDir, 'GET', '/flows', undefined);
    assert.is(((flows.body as Body).data.flows as unknown[]).length, 0, 'no refused command created a flow');

    const created = await runCli({ dataDir }, [...base, '--set', '1.username=reader', '--set-secret', '1.app_password', '--json'], {
      stdin: `${SECRET}\n`,
    });
    assert.is(created.status, 0, created.stderr);
    assert.not.match(created.stdout, 'efgh');
    const flowId = (JSON.parse(created.stdout) as Body).flow_id as number;
    const settings = await opened(host, flowId);
    assert.is(settings.app_password, SECRET, 'the value arrives whole: inner spaces kept, the line end dropped');
    assert.is(settings.username, 'reader');
  });

  test('--set-secret <step>.<key>=@<file> reads a file; a missing file is named', async ({ host, dataDir, pipelineId }) => {
    const flow = await hostApi(dataDir, 'POST', '/flows', { pipeline_id: pipelineId, flow_name: 'From a file' });
    const flowId = (flow.body as Body).data.flow_id as number;
    const dir = mkdtempSync(join(tmpdir(), 'flowhost-secret-'));
    const file = join(dir, 'app-password');
    writeFileSync(file, `${FILE_SECRET}\n`, { mode: 0o600 });
    const missing = await runCli({ dataDir }, [
      'flows',
      'config',
      String(flowId),
      '--handler',
      '1=cms-api',
      '--set-secret',
      `1.app_password=@${join(dir, 'nope')}`,
    ]);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /--set-secret 1\.app_password: cannot read .*nope \(ENOENT\)/);
    const set = await runCli({ dataDir }, [
      'flows',
      'config',
      String(flowId),
      '--handler',
      '1=cms-api',
      '--set',
      '1.api_url=https://remote.example/wp-json/wp/v2',
      '--set-secret',
      `1.app_password=@${file}`,
    ]);
    assert.is(set.status, 0, set.stderr);
    assert.not.match(set.stdout, FILE_SECRET);
    assert.is((await opened(host, flowId)).app_password, FILE_SECRET);
    // Two secrets cannot both come from standard input: the second is told to use a file.
    const two = await runCli(
      { dataDir },
      ['flows', 'config', String(flowId), '--set-secret', '1.app_password', '--set-secret', '1.token'],
      {
        stdin: 'x\n',
      },
    );
    assert.is(two.status, 1);
    assert.match(
      two.stderr,
      /--set-secret 1\.token: standard input is already read for --set-secret 1\.app_password; give this one from a file/,
    );
  });

  test.run();
}
