// test-runner: waits (a flow on an every-second interval across three starts of a host: about 8 s)
// Orphan flows (issue 54): a flow using a plugin's handler and interval, the host restarted
// without that plugin, is reported at boot, listed as a problem flow with the reason (API and
// CLI), shows no next run, is skipped when its schedule fires and refuses a manual run; the
// plugin loaded again, the flow is whole and runs on its schedule with no manual step.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { definePlugin, defineHandler, defineInterval, services, type PluginDefinition } from '../../../sdk/index.js';
import { captureLogger } from '../../support/capture-logger.js';
import { cliJson, runCli } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const source: PluginDefinition = definePlugin({
  id: 'orphan-source',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers, intervals: services.intervals },
  setup(host) {
    host.intervals.add(defineInterval({ value: 'orphan_every_second', label: 'Every second', seconds: 1 }));
    host.handlers.add(
      defineHandler({
        slug: 'orphan-ticker',
        type: 'fetch',
        label: 'Ticker',
        description: 'A new item every call.',
        async fetch() {
          return [{ type: 'tick', data: { id: `tick-${Date.now()}-${Math.random()}` }, metadata: {} }];
        },
      }),
    );
  },
}) as PluginDefinition;

interface Started {
  host: Host;
  lines: string[];
  call: (method: string, path: string, body?: unknown) => Promise<Body>;
}

async function start(config: Partial<HostConfig> & { dataDir: string }, withSource: boolean): Promise<Started> {
  const logger = captureLogger();
  const host = await createHost({
    plugins: withSource ? [...defaultPlugins, source] : defaultPlugins,
    env: {},
    logger,
    config: { port: 0, host: '127.0.0.1', schedulerProcessEvery: 100, checkResponses: true, ...config },
  });
  const url = await host.start();
  const password = host.initialAdmin?.password ?? readFileSync(join(config.dataDir, 'initial-admin-password'), 'utf8').trim();
  const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/automation/v1${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as Body) };
  };
  return { host, lines: logger.lines, call };
}

const until = async (what: string, check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not seen in ${ms} ms`);
};

const logged = (lines: string[], words: string) => lines.map((l) => JSON.parse(l) as Body).filter((l) => String(l.msg).includes(words));

for (const store of testStores('orphan flows')) {
  const test = suite(`orphan flows: a removed plugin's flows (${store.label})`);

  test('reported at boot, listed with the reason, not scheduled, refused a run; whole again with the plugin back', async () => {
    const config = { ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-orphans-')) };
    let flowId = 0;
    const first = await start(config, true);
    try {
      const pipelineId = (await first.call('POST', '/pipelines', { pipeline_name: 'Ticks', steps: [{ step_type: 'fetch' }] })).data
        .pipeline_id;
      const stepId = (await first.call('GET', `/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps[0].pipeline_step_id;
      const created = await first.call('POST', '/flows', {
        pipeline_id: pipelineId,
        flow_name: 'Ticks',
        flow_config: { [stepId]: { handler_slug: 'orphan-ticker' } },
        scheduling_config: { interval: 'orphan_every_second' },
      });
      assert.is(created.status, 200, JSON.stringify(created));
      flowId = created.data.flow_id;
      assert.is(logged(first.lines, 'orphaned').length, 0, 'nothing orphaned while the plugin is loaded');
    } finally {
      await first.host.stop();
    }

    // Without the plugin.
    const second = await start(config, false);
    try {
      const boot = logged(second.lines, `Flow ${flowId} "Ticks" is orphaned`);
      assert.is(boot.length, 1, 'one warning for the flow at boot');
      assert.match(boot[0]!.msg, "handler 'orphan-ticker'");
      assert.match(boot[0]!.msg, "interval 'orphan_every_second'");
      assert.match(boot[0]!.msg, "plugin 'orphan-source'");

      const problems = await second.call('GET', '/flows/problems');
      assert.is(problems.status, 200, JSON.stringify(problems));
      const entry = problems.data.problem_flows.find((p: Body) => p.flow_id === flowId);
      assert.ok(entry, 'listed as a problem flow');
      assert.equal(
        entry.orphaned.map((o: Body) => [o.kind, o.name, o.plugin]),
        [
          ['handler', 'orphan-ticker', 'orphan-source'],
          ['interval', 'orphan_every_second', 'orphan-source'],
        ],
      );
      assert.match(entry.orphaned[0].reason, "names handler 'orphan-ticker', which no loaded plugin provides");

      const flow = (await second.call('GET', `/flows/${flowId}`)).data;
      assert.is(flow.next_run, null, 'no next run shown');
      assert.match(flow.next_run_display, /^Not scheduled: handler 'orphan-ticker' missing/);

      // The CLI lists it with the reason.
      const cli = await cliJson<Body>({ dataDir: config.dataDir }, ['flows', 'problems']);
      assert.ok(cli.problem_flows.some((p: Body) => p.flow_id === flowId && p.orphaned.length === 2));
      const table = await runCli({ dataDir: config.dataDir }, ['flows', 'problems']);
      assert.match(table.stdout, "which no loaded plugin provides; it came from plugin 'orphan-source'");

      // Its schedule fires every second and is skipped, saying why; no run is stored.
      const jobsBefore = (await second.call('GET', `/jobs?flow_id=${flowId}`)).total as number;
      await until('the skipped firing', async () => logged(second.lines, `Flow ${flowId} "Ticks" skipped by its schedule`).length >= 1);
      assert.is((await second.call('GET', `/jobs?flow_id=${flowId}`)).total, jobsBefore, 'no run stored');

      const run = await second.call('POST', '/execute', { flow_id: flowId });
      assert.is(run.status, 409, JSON.stringify(run));
      assert.is(run.code, 'flow_orphaned');
      assert.match(run.message, "handler 'orphan-ticker'");
      assert.equal(
        run.data.orphaned.map((o: Body) => o.kind),
        ['handler'],
        'a missing interval alone does not stop a run',
      );
      assert.is((await second.call('GET', `/jobs?flow_id=${flowId}`)).total, jobsBefore, 'no job spent on the refusal');
    } finally {
      await second.host.stop();
    }

    // The plugin back: nothing to do by hand.
    const third = await start(config, true);
    try {
      assert.is(logged(third.lines, 'orphaned').length, 0, 'no orphan reported');
      const problems = await third.call('GET', '/flows/problems');
      assert.not.ok(
        problems.data.problem_flows.some((p: Body) => p.flow_id === flowId),
        'no longer a problem flow',
      );
      assert.ok((await third.call('GET', `/flows/${flowId}`)).data.next_run, 'a next run again');
      const before = (await third.call('GET', `/jobs?flow_id=${flowId}`)).total as number;
      await until('a scheduled run', async () => ((await third.call('GET', `/jobs?flow_id=${flowId}`)).total as number) > before);
      const run = await third.call('POST', '/execute', { flow_id: flowId });
      assert.ok(run.status === 200 || run.code === 'flow_running', JSON.stringify(run));
    } finally {
      await third.host.stop();
    }
  });

  test.run();
}
