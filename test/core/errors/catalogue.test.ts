// The error catalogue as a route author uses it: a declared code gives its status and
// message, a code with several statuses makes the site choose one of them, WordPress's
// 401/403 rule follows the caller, and a plugin cannot declare a core code again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { apiError, definePluginErrors, isApiError, PluginError } from '../../../sdk/index.js';
import { repoRoot } from '../../support/host-process.js';

const test = suite('core: error catalogue');

test('a declared code answers its status and default message; a site may say more', () => {
  const plain = apiError('flow_not_found');
  assert.ok(isApiError(plain));
  assert.equal(plain.toBody(), { code: 'flow_not_found', message: 'Flow not found.', data: { status: 404 } });
  const precise = apiError('rest_invalid_param', { message: 'Invalid parameter(s): name', data: { params: { name: 'too long' } } });
  assert.equal(precise.toBody(), {
    code: 'rest_invalid_param',
    message: 'Invalid parameter(s): name',
    data: { params: { name: 'too long' }, status: 400 },
  });
  const limited = apiError('rest_too_many_requests', { headers: { 'Retry-After': '3' } });
  assert.equal(limited.headers, { 'Retry-After': '3' });
});

test('a code with two statuses is sent with the one the site picks, and only a declared one', () => {
  assert.is(apiError('rest_post_invalid_id', { status: 404 }).status, 404);
  assert.is(apiError('rest_post_invalid_id', { status: 400 }).status, 400);
  // @ts-expect-error: 410 is not a status rest_post_invalid_id is declared with
  assert.throws(() => apiError('rest_post_invalid_id', { status: 410 }), /declared 404 or 400, not 410/);
  // @ts-expect-error: the site must choose
  assert.throws(() => apiError('rest_post_invalid_id'), /declared 404 or 400/);
});

test("WordPress's rule: 401 for an anonymous caller, 403 for a signed-in one", () => {
  assert.is(apiError('rest_forbidden', { user: null }).status, 401);
  assert.is(apiError('rest_forbidden', { user: { userId: 1 } }).status, 403);
});

test('a fixed status cannot be changed at the site; an undeclared code does not type-check', () => {
  // @ts-expect-error: flow_not_found is 404
  assert.throws(() => apiError('flow_not_found', { status: 400 }), /declared 404, not 400/);
  // @ts-expect-error: no such code
  assert.throws(() => apiError('flow_gone'), /not declared in the core error catalogue/);
});

test("a plugin's catalogue types its codes and refuses the core's", () => {
  const acmeError = definePluginErrors('acme', {
    acme_quota: { status: 429, message: 'The acme quota is spent.' },
    acme_remote: { status: [502, 504], message: 'The acme service failed.' },
  });
  assert.equal(acmeError('acme_quota').toBody(), { code: 'acme_quota', message: 'The acme quota is spent.', data: { status: 429 } });
  assert.is(acmeError('acme_remote', { status: 504 }).status, 504);
  // @ts-expect-error: a core code goes through apiError
  assert.throws(() => acmeError('rest_invalid_param'), /not declared in the acme error catalogue/);
  assert.throws(
    () => definePluginErrors('acme', { rest_invalid_param: { status: 422, message: 'x' } }),
    (error: unknown) => {
      return error instanceof PluginError && /Plugin 'acme': declares the core error code\(s\) rest_invalid_param/.test(error.message);
    },
  );
});

test('built-in code throws errors through the catalogues only', () => {
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) sources.push(full);
    }
  };
  for (const dir of ['core', 'host', 'plugins', 'sdk']) walk(join(repoRoot, dir));
  const allowed = new Set(['sdk/errors.ts', 'sdk/errors/define-errors.ts']);
  // The SDK's older helpers stay exported for third-party plugins; built-ins use the catalogues.
  const legacy =
    /new ApiError\(|\b(?:badRequest|conflict|tooManyRequests|notLoggedIn)\(|import \{[^}]*\b(?:notFound|forbidden)\b[^}]*\} from '[./]*(?:sdk\/index|core\/errors|errors)\.js'/;
  const found = sources
    .map((file) => relative(repoRoot, file))
    .filter((file) => !allowed.has(file) && legacy.test(readFileSync(join(repoRoot, file), 'utf8')));
  assert.equal(found, []);
});

test.run();
