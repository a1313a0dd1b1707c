// docs/api.md's error tables are generated from the error catalogues (scripts/error-table.mjs):
// this fails when someone edits a table by hand or declares a code without regenerating, when a
// code is declared twice, and when openapi.json lists a code under a status its catalogue
// does not give it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiError } from '../../core/errors/catalogue.js';
import { statusesOf, type ErrorEntry } from '../../core/errors/define-errors.js';
import { duplicateCodes, errorTables, withErrorTables } from '../../core/errors/table.js';
import { pluginErrorCatalogues } from '../../plugins/error-catalogues.js';
import { optionalPlugins } from '../../plugins/index.js';
import { createTestHost } from '../../sdk/testing/index.js';
import { repoRoot } from '../support/host-process.js';
import { servedOpenApi, type OpenApiDocument } from '../support/served-openapi.js';

const test = suite('docs: the error tables and the catalogues');
const page = () => readFileSync(join(repoRoot, 'docs/api.md'), 'utf8');

test('docs/api.md holds exactly the tables the catalogues generate', () => {
  const current = page();
  const generated = withErrorTables(current, errorTables(pluginErrorCatalogues));
  assert.ok(current === generated, 'docs/api.md disagrees with the error catalogues: run node scripts/error-table.mjs after a build');
});

test('a code is declared once, in one catalogue', () => {
  assert.equal(duplicateCodes(pluginErrorCatalogues), []);
});

test('every code in openapi.json is declared, under a status its catalogue gives it', async () => {
  const declared = new Map<string, ErrorEntry>(Object.entries(apiError.entries));
  for (const catalogue of pluginErrorCatalogues) for (const [code, entry] of Object.entries(catalogue.entries)) declared.set(code, entry);
  const t = await createTestHost({ plugins: Object.values(optionalPlugins) });
  let doc: OpenApiDocument;
  try {
    doc = (await servedOpenApi(t.url)).doc;
  } finally {
    await t.stop();
  }
  const schemas = doc.components?.schemas ?? {};
  const resolve = (node: unknown): unknown => {
    const ref = (node as { $ref?: unknown } | null)?.$ref;
    return typeof ref === 'string' ? resolve(schemas[ref.replace('#/components/schemas/', '')]) : node;
  };
  // Every code enum anywhere in a response schema (error bodies may sit inside anyOf).
  const codesIn = (node: unknown, out: Set<string> = new Set(), seen = new Set<unknown>()): Set<string> => {
    const value = resolve(node);
    if (!value || typeof value !== 'object' || seen.has(value)) return out;
    seen.add(value);
    const code = (value as { properties?: { code?: { enum?: unknown } } }).properties?.code?.enum;
    if (Array.isArray(code)) for (const c of code) if (typeof c === 'string') out.add(c);
    for (const child of Object.values(value)) codesIn(child, out, seen);
    return out;
  };
  const problems: string[] = [];
  let checked = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        for (const code of codesIn(response.content?.['application/json']?.schema)) {
          checked++;
          const entry = declared.get(code);
          const where = `${method.toUpperCase()} ${path} ${status}: '${code}'`;
          if (!entry) {
            problems.push(`${where} is declared in no catalogue`);
            continue;
          }
          const statuses = statusesOf(entry);
          if (statuses === '4xx') {
            if (!status.startsWith('4')) problems.push(`${where} is a 4xx code`);
          } else if (!statuses.includes(Number(status))) problems.push(`${where} is declared ${statuses.join(', ')}`);
        }
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} error codes found in openapi.json`);
  assert.equal(problems, []);
});

test.run();
