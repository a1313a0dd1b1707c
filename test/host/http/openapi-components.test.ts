// Shared shapes in openapi.json are named components referenced with $ref, not copies: the
// error body, flows, pipelines, jobs, users, uploads... A generated client then has one type
// per shape (components['schemas']['Flow']), and the document stays small.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { servedOpenApi, type OpenApiDocument } from '../../support/served-openapi.js';

type Node = Record<string, unknown>;
const at = (value: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((node, key) => (node as Node | undefined)?.[key], value);
const json = (op: unknown, status: string) => at(op, 'responses', status, 'content', 'application/json', 'schema');

/** Every object in the document, with its JSON pointer-ish path. */
function* nodes(value: unknown, path = '#'): Generator<[string, Node]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* nodes(v, `${path}/${i}`);
  else if (value && typeof value === 'object') {
    yield [path, value as Node];
    for (const [k, v] of Object.entries(value)) yield* nodes(v, `${path}/${k}`);
  }
}

const test = suite<{ t: TestHost; doc: OpenApiDocument }>('host: openapi.json components');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: Object.values(optionalPlugins) });
  ctx.doc = (await servedOpenApi(ctx.t.url)).doc;
});
test.after(async (ctx) => {
  await ctx.t.stop();
});

test('the shared shapes are components, each under its own name', ({ doc }) => {
  const names = Object.keys(doc.components?.schemas ?? {});
  for (const name of [
    'Error',
    'Flow',
    'FlowSummary',
    'FlowStepConfig',
    'SchedulingConfig',
    'Pipeline',
    'PipelineSummary',
    'PipelineStep',
    'Job',
    'JobSummary',
    'JobStep',
    'User',
    'Session',
    'Attachment',
    'StoredFile',
  ]) {
    assert.ok(names.includes(name), `components.schemas.${name}`);
  }
  // A second shape under a taken name gets a suffix (name_2): the host's own never do.
  assert.equal(
    names.filter((n) => /_\d+$/.test(n)),
    [],
  );
  const marked = [...nodes(doc)].filter(([, n]) => 'x-flowhost-component' in n).map(([p]) => p);
  assert.equal(marked, [], 'the naming keyword is not published');
});

test('routes answer with $refs to them', ({ doc }) => {
  const p = doc.paths;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  assert.equal(at(json(p['/api/automation/v1/flows/{flow_id}']?.get, '200'), 'properties', 'data'), ref('Flow'));
  assert.equal(at(json(p['/api/automation/v1/jobs/{job_id}']?.get, '200'), 'properties', 'data'), ref('Job'));
  assert.equal(at(json(p['/api/automation/v1/jobs']?.get, '200'), 'properties', 'data', 'items'), ref('JobSummary'));
  assert.equal(at(doc.components?.schemas, 'Pipeline', 'properties', 'pipeline_steps', 'items'), ref('PipelineStep'));
  assert.equal(at(doc.components?.schemas, 'Flow', 'properties', 'flow_config', 'additionalProperties'), ref('FlowStepConfig'));
  assert.equal(json(p['/api/wp/v2/media']?.post, '201'), ref('Attachment'));
  assert.equal(at(json(p['/api/automation/v1/files']?.post, '201'), 'properties', 'file'), ref('StoredFile'));
});

test('every error body is the Error component with its codes; none is copied inline', ({ doc }) => {
  assert.equal(at(json(doc.paths['/api/automation/v1/flows/{flow_id}']?.get, '404'), 'allOf'), [
    { $ref: '#/components/schemas/Error' },
    { type: 'object', properties: { code: { enum: ['flow_not_found'] } } },
  ]);
  // The inline copies this replaces: an object with exactly code, message and data.
  const copies = [...nodes(doc.paths, '#/paths')]
    .filter(([, n]) => JSON.stringify(Object.keys((n.properties as Node | undefined) ?? {})) === '["code","message","data"]')
    .map(([path]) => path);
  assert.equal(copies, []);
});

test('a free-form object in a request is declared open (additionalProperties: true), not left to read as "no fields"', ({ doc }) => {
  const ambiguous: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [where, n] of nodes({ parameters: op.parameters, requestBody: op.requestBody }, `${method.toUpperCase()} ${path}`)) {
        const isObject = n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object'));
        if (isObject && !['properties', 'patternProperties', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', '$ref'].some((k) => k in n))
          ambiguous.push(where);
      }
    }
  }
  assert.equal(ambiguous, []);
  const steps = at(
    doc.paths['/api/automation/v1/pipelines']?.post,
    'requestBody',
    'content',
    'application/json',
    'schema',
    'properties',
    'steps',
    'items',
    'properties',
    'config',
  );
  assert.equal(steps, { type: 'object', additionalProperties: true });
});

test.run();
