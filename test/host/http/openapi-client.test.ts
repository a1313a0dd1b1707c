// A typed client generated from the served openapi.json, as a user would make one:
// openapi-typescript (default options) writes the types, a small program uses them with
// openapi-fetch, tsc compiles it under strict settings, and it runs against a live host.
// It sends free-form fields (`config: { foo: 1 }`, handler settings) that the document must
// declare open: generated from `{ type: 'object' }` they would be `Record<string, never>`
// and the program would not compile.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { repoRoot } from '../../support/served-openapi.js';

/** The program, as a user would write it against the generated types. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type FlowStepConfig = components['schemas']['FlowStepConfig'];

export interface Outcome {
  stepConfig: Record<string, unknown>;
  handlerConfig: FlowStepConfig['handler_config'];
  defaults: Record<string, unknown>;
}

export async function run(baseUrl: string, authorization: string): Promise<Outcome> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });
  const pipeline = await client.POST('/api/automation/v1/pipelines', {
    body: { pipeline_name: 'Typed client', steps: [{ step_type: 'fetch', config: { foo: 1 } }] },
  });
  if (!pipeline.data) throw new Error('POST /pipelines: ' + JSON.stringify(pipeline.error));
  const flow = await client.POST('/api/automation/v1/flows', { body: { pipeline_id: pipeline.data.data.pipeline_id, flow_name: 'Typed' } });
  if (!flow.data) throw new Error('POST /flows: ' + JSON.stringify(flow.error));
  const stepId = Object.keys(flow.data.data.flow_config)[0];
  if (!stepId) throw new Error('the flow has no step');
  const path = { flow_step_id: stepId };
  const handler = await client.PUT('/api/automation/v1/flows/steps/{flow_step_id}/handler', { params: { path }, body: { handler_slug: 'files', settings: { foo: 1 } } });
  if (!handler.data) throw new Error('PUT handler: ' + JSON.stringify(handler.error));
  const config = await client.PATCH('/api/automation/v1/flows/steps/{flow_step_id}/config', { params: { path }, body: { handler_config: { foo: 2, nested: { any: ['thing'] } } } });
  if (!config.data) throw new Error('PATCH config: ' + JSON.stringify(config.error));
  const defaults = await client.PUT('/api/automation/v1/settings/handler-defaults/{handler_slug}', { params: { path: { handler_slug: 'files' } }, body: { settings: { foo: 3 } } });
  if (!defaults.data) throw new Error('PUT handler-defaults: ' + JSON.stringify(defaults.error));
  const steps = pipeline.data.data.pipeline_data.pipeline_steps;
  return { stepConfig: { ...steps[0] }, handlerConfig: config.data.data.step_config.handler_config, defaults: { ...defaults.data.data.settings } };
}

// The types are real, not any: a wrong type for a declared field does not compile.
type PipelineBody = paths['/api/automation/v1/pipelines']['post']['requestBody']['content']['application/json'];
// @ts-expect-error pipeline_name is a string
export const wrong: PipelineBody = { pipeline_name: 1 };
`;

const test = suite<{ t: TestHost; dir: string }>('host: a typed client generated from openapi.json');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: Object.values(optionalPlugins) });
  ctx.dir = await mkdtemp(join(tmpdir(), 'flowhost-openapi-client-'));
  // The program imports openapi-fetch as a user's would: from a node_modules beside it.
  await symlink(join(repoRoot, 'node_modules'), join(ctx.dir, 'node_modules'), 'dir');
  await writeFile(join(ctx.dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
});
test.after(async (ctx) => {
  await ctx.t.stop();
  await rm(ctx.dir, { recursive: true, force: true });
});

test('generated, compiled with strict tsc, and run: free-form config and settings go through', async ({ t, dir }) => {
  // Straight from the live host's URL, as `npx openapi-typescript http://host/api/openapi.json` does.
  const ast = await openapiTS(new URL('/api/openapi.json', t.url), { silent: true });
  await writeFile(join(dir, 'api.d.ts'), astToString(ast));
  await writeFile(join(dir, 'client.ts'), CLIENT);

  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    outDir: join(dir, 'out'),
    noEmitOnError: true,
    // Only the generated types and the program are checked, not the libraries' own .d.ts.
    skipLibCheck: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
        : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  assert.equal(diagnostics, [], `tsc:\n  ${diagnostics.join('\n  ')}`);
  assert.is(program.emit().emitSkipped, false);

  const client = (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as {
    run(
      baseUrl: string,
      authorization: string,
    ): Promise<{ stepConfig: Record<string, unknown>; handlerConfig: Record<string, unknown>; defaults: Record<string, unknown> }>;
  };
  const outcome = await client.run(t.url, `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`);
  assert.is(outcome.stepConfig.foo, 1);
  assert.is(outcome.handlerConfig.foo, 2);
  assert.equal(outcome.handlerConfig.nested, { any: ['thing'] });
  assert.equal(outcome.defaults, { foo: 3 });
});

test.run();
