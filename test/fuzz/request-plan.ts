// One route → an arbitrary of whole HTTP requests against it: path parameters, query and
// body drawn from the route's own schemas, each mixed with hostile variants (see
// mutations.ts), under a method (mostly the route's own), a content type and credentials.
import fc from 'fast-check';
import type { CompiledRoute } from '../../host/http/route-table.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { preview, toJsonText, RawJson } from './json-text.js';
import { bodyMutation, junkBodyText, NUMERIC_JUNK, ODD_SEGMENTS, SCALAR_JUNK } from './mutations.js';
import { propertyArbitrary, schemaArbitrary, type SchemaArbitraryOptions } from './schema-arbitrary.js';

export type Auth = 'admin' | 'anonymous' | 'flow-token' | { junk: Record<string, string> };

export class FuzzRequest {
  constructor(
    /** The route template this request aims at, e.g. `GET /api/automation/v1/flows/{flow_id}`. */
    readonly route: string,
    readonly method: string,
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: string | Buffer | undefined,
    readonly auth: Auth,
    readonly localAddress: string,
  ) {}

  authLabel(): string {
    return typeof this.auth === 'string' ? this.auth : `junk ${preview(JSON.stringify(this.auth.junk), 120)}`;
  }

  describe(max = 300): string {
    const headers = Object.keys(this.headers).length ? ` headers=${preview(JSON.stringify(this.headers), 200)}` : '';
    const body = this.body === undefined ? '' : ` body=${preview(this.body, max)}`;
    return `${this.method} ${preview(this.path, 240)} as=${this.authLabel()}${headers}${body}`;
  }

  /** What fast-check prints for a counterexample (bodies can be 100 KB). */
  [fc.toStringMethod](): string {
    return this.describe();
  }
}

export interface PlanContext extends SchemaArbitraryOptions {
  /** Whether the route takes the flow's trigger token (POST /trigger/{flow_id}). */
  isTrigger?: (route: CompiledRoute) => boolean;
}

const routeLabel = (route: CompiledRoute) => `${route.method} ${route.fullPath}`;
const schemaOf = (route: CompiledRoute, part: 'params' | 'query' | 'body') => route.definition.schema?.[part] as JsonSchema | undefined;
const propsOf = (schema: JsonSchema | undefined) => (schema?.properties ?? {}) as Record<string, JsonSchema>;

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?')); // lone surrogates
  }
}

/** A value as query / path text (the way clients write booleans, arrays and objects). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------- path

function segmentArbitrary(name: string, schema: JsonSchema, ctx: PlanContext): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: propertyArbitrary(name, schema, ctx).map((v) => encode(asText(v))), weight: 8 },
    { arbitrary: fc.constantFrom('1', '2'), weight: 2 },
    { arbitrary: fc.constantFrom(...NUMERIC_JUNK), weight: 2 },
    { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 1 },
    { arbitrary: fc.string({ maxLength: 30, unit: 'grapheme' }).map(encode), weight: 1 },
  );
}

/** Changes to the whole path: slashes, dot segments, case, a junk tail. */
const pathMutation: fc.Arbitrary<(path: string) => string> = fc.oneof(
  fc.constant((p: string) => `${p}/`),
  fc.constant((p: string) => p.replace(/\//g, '//')),
  fc.constant((p: string) => `${p}/..`),
  fc.constant((p: string) => `${p}/../..`),
  fc.constant((p: string) => p.replace(/\/([^/]*)$/, '/./$1')),
  // Upper case may leave Latin-1 ('ÿ' → 'Ÿ', U+0178), which no HTTP client can send as is:
  // such characters go percent-encoded, as a client would send them.
  fc.constant((p: string) => p.toUpperCase().replace(/[^\u0000-\u00ff]/gu, (c) => encodeURIComponent(c))),
  fc.constant((p: string) => `/${p.slice(1).replace(/\//g, '%2F')}`),
  fc.constant((p: string) => `${p}%00`),
  fc.constant((p: string) => `${p}#fragment`),
  fc.constantFrom(...ODD_SEGMENTS).map((s) => (p: string) => `${p}/${s}`),
);

function pathArbitrary(route: CompiledRoute, ctx: PlanContext, odd: boolean): fc.Arbitrary<string> {
  const names = [...route.fullPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const props = propsOf(schemaOf(route, 'params'));
  const segments = fc.tuple(...names.map((n) => segmentArbitrary(n, props[n] ?? { type: 'string' }, ctx)));
  const filled = segments.map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), route.fullPath));
  return fc
    .tuple(filled, fc.oneof({ arbitrary: fc.constant(null), weight: odd ? 1 : 20 }, { arbitrary: pathMutation, weight: 1 }))
    .map(([path, mutate]) => (mutate ? mutate(path) : path));
}

// ---------------------------------------------------------------- query

function validQueryPairs(route: CompiledRoute, ctx: PlanContext): fc.Arbitrary<string[]> {
  const schema = schemaOf(route, 'query');
  if (!schema) return fc.constant([]);
  return schemaArbitrary(schema, ctx).map((value) => {
    const pairs: string[] = [];
    for (const [key, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(v)) for (const item of v) pairs.push(`${encode(key)}[]=${encode(asText(item))}`);
      else pairs.push(`${encode(key)}=${encode(asText(v))}`);
    }
    return pairs;
  });
}

function queryMutation(route: CompiledRoute): fc.Arbitrary<string> {
  const declared = Object.keys(propsOf(schemaOf(route, 'query')));
  const key = declared.length ? fc.constantFrom(...declared) : fc.constantFrom('id', 'page', 'x');
  return fc.oneof(
    fc.tuple(key, fc.constantFrom(...SCALAR_JUNK)).map(([k, v]) => `${k}=${encode(v)}`),
    fc.tuple(key, fc.constantFrom(...NUMERIC_JUNK)).map(([k, v]) => `${k}=${v}`),
    fc.constantFrom(
      '__proto__=x',
      'constructor=x',
      'prototype=x',
      '__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      '__proto__=x&__proto__=y',
      'constructor=x&constructor=y',
      'hasOwnProperty=x',
      'toString=x',
      'valueOf=1',
    ),
    key.map((k) => `${k}=1&${k}=2`),
    key.map((k) => `${k}[]=1&${k}[]=2`),
    key.map((k) => `${k}[]=`),
    key.map((k) => `${k}=%ff`),
    key.map((k) => `${k}=%E0%A4%A`),
    key.map((k) => `${k}=${'9'.repeat(2000)}`),
    key.map((k) => `${k}=${'x'.repeat(3000)}`),
    fc.constantFrom('%ff=1', '%=%', '&&', '=', '==x', 'a=%', '_locale=user', 'agent_id=1'),
    fc.constantFrom('PUT', 'PATCH', 'DELETE', 'GET', 'TRACE', 'x').map((m) => `_method=${m}`),
  );
}

function queryArbitrary(route: CompiledRoute, ctx: PlanContext): fc.Arbitrary<string> {
  return fc
    .tuple(validQueryPairs(route, ctx), fc.array(queryMutation(route), { maxLength: 3 }), fc.boolean())
    .map(([pairs, junk, mutate]) => {
      const all = mutate ? [...pairs, ...junk] : pairs;
      return all.length ? `?${all.join('&')}` : '';
    });
}

// ---------------------------------------------------------------- body

const CONTENT_TYPES = [
  'application/json',
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzzboundary',
] as const;
const ODD_CONTENT_TYPES = [
  'application/xml',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded; charset=latin1',
  ';',
  'application/octet-stream',
  'multipart/form-data',
] as const;

const contentType = fc.oneof(
  { arbitrary: fc.constant<string | undefined>('application/json'), weight: 8 },
  { arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES), weight: 3 },
  { arbitrary: fc.constantFrom<string | undefined>(...ODD_CONTENT_TYPES), weight: 1 },
);

function formEntries(value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawJson) return [['', toJsonText(value)]];
  const out: Array<[string, string]> = [];
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (Array.isArray(v)) for (const item of v) out.push([`${key}[]`, typeof item === 'string' ? item : toJsonText(item)]);
    else out.push([key, typeof v === 'string' ? v : toJsonText(v)]);
  }
  return out;
}

/** The body value written in the given content type. */
export function encodeBody(value: unknown, type: string | undefined): string {
  const base = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (base === 'application/x-www-form-urlencoded')
    return formEntries(value)
      .map(([k, v]) => `${encode(k)}=${encode(v)}`)
      .join('&');
  if (base === 'multipart/form-data') {
    const parts = formEntries(value).map(
      ([k, v]) => `--fuzzboundary\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '%22')}"\r\n\r\n${v}\r\n`,
    );
    return `${parts.join('')}--fuzzboundary--\r\n`;
  }
  return toJsonText(value);
}

const UPLOAD_NAMES = [
  'photo.png',
  'a.csv',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  '',
  '.',
  '"; name="x',
  'x\u0000y.txt',
  '\u202Egnp.exe',
  'a'.repeat(400),
  '%00.jpg',
  'CON',
  'ü.txt',
] as const;
const UPLOAD_TYPES = [
  'image/png',
  'text/csv',
  'application/json',
  'text/html',
  'image/svg+xml',
  'application/octet-stream',
  '',
  'x',
  'a/b/c',
  'image/png; charset=utf-8',
] as const;

/**
 * For a `streamBody` route (an upload): multipart forms with a file part under a likely
 * field name, hostile file names and types, sometimes cut off before the closing
 * boundary; and raw bodies, with or without a Content-Disposition naming the file.
 */
type UploadBody = { body?: string | Buffer; type?: string; headers?: Record<string, string> };

function uploadArbitrary(): fc.Arbitrary<UploadBody> {
  const bytes = fc
    .oneof(fc.uint8Array({ maxLength: 2048 }), fc.constantFrom(new Uint8Array(0), new Uint8Array(70_000)))
    .map((b) => Buffer.from(b));
  const multipart = fc
    .record({
      field: fc.constantFrom('file', 'file', 'upload', 'file[]', ''),
      name: fc.constantFrom(...UPLOAD_NAMES),
      type: fc.constantFrom(...UPLOAD_TYPES),
      bytes,
      fields: fc.dictionary(
        fc.constantFrom('title', 'alt_text', 'caption', 'description', 'post', '__proto__', 'x'),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('0', '-1', '1', '99999', '1e400', 'a'.repeat(70_000))),
      ),
      cut: fc.boolean(),
    })
    .map(({ field, name, type, bytes: content, fields, cut }) => {
      const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
        Buffer.from(`--fuzzboundary\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      );
      parts.push(
        Buffer.from(
          `--fuzzboundary\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
        ),
        content,
        Buffer.from('\r\n'),
      );
      if (!cut) parts.push(Buffer.from('--fuzzboundary--\r\n'));
      return { body: Buffer.concat(parts), type: 'multipart/form-data; boundary=fuzzboundary' } as UploadBody;
    });
  const raw = fc
    .record({ name: fc.constantFrom(...UPLOAD_NAMES, null), type: fc.constantFrom(...UPLOAD_TYPES), bytes, star: fc.boolean() })
    .map(
      ({ name, type, bytes: content, star }): UploadBody => ({
        body: content,
        type: type || 'application/octet-stream',
        headers:
          name === null
            ? {}
            : {
                'Content-Disposition': star
                  ? `attachment; filename*=UTF-8''${encode(name)}`
                  : `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"`,
              },
      }),
    );
  return fc.oneof(multipart as fc.Arbitrary<UploadBody>, raw);
}

function bodyArbitrary(
  route: CompiledRoute,
  ctx: PlanContext,
): fc.Arbitrary<{ body?: string | Buffer; type?: string; headers?: Record<string, string> }> {
  if (route.definition.streamBody && route.method !== 'GET') {
    return fc.oneof({ arbitrary: uploadArbitrary(), weight: 3 }, { arbitrary: plainBodyArbitrary(route, ctx), weight: 1 });
  }
  return plainBodyArbitrary(route, ctx);
}

function plainBodyArbitrary(route: CompiledRoute, ctx: PlanContext): fc.Arbitrary<{ body?: string | Buffer; type?: string }> {
  const schema = schemaOf(route, 'body') ?? { type: 'object' };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const valid = schemaArbitrary(schema, ctx);
  const value = fc.oneof(
    { arbitrary: valid, weight: 4 },
    { arbitrary: fc.tuple(valid, bodyMutation).map(([v, mutate]) => mutate((v ?? {}) as Record<string, unknown>, required)), weight: 5 },
  );
  const encoded = fc.tuple(value, contentType).map(([v, type]) => ({ body: encodeBody(v, type), type }));
  const junk = fc.tuple(junkBodyText, contentType).map(([body, type]) => ({ body, type }));
  const none = fc.constantFrom<{ body?: string; type?: string }>({}, { body: '', type: 'application/json' });
  if (route.method === 'GET')
    return fc.oneof({ arbitrary: none, weight: 8 }, { arbitrary: encoded, weight: 1 }, { arbitrary: junk, weight: 1 });
  return fc.oneof({ arbitrary: encoded, weight: 8 }, { arbitrary: junk, weight: 1 }, { arbitrary: none, weight: 1 });
}

// ---------------------------------------------------------------- method, credentials, headers

/** Methods Node's parser accepts that no route declares (CONNECT left out: it is a tunnel). */
export const ODD_METHODS = [
  'TRACE',
  'PROPFIND',
  'OPTIONS',
  'HEAD',
  'PROPPATCH',
  'MKCOL',
  'SEARCH',
  'LOCK',
  'UNLOCK',
  'PURGE',
  'REPORT',
  'COPY',
  'MOVE',
  'QUERY',
  'M-SEARCH',
] as const;
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function methodArbitrary(route: CompiledRoute, odd: boolean): fc.Arbitrary<{ method: string; headers: Record<string, string> }> {
  const own = fc.constant({ method: route.method, headers: {} });
  const override = fc
    .constantFrom(route.method, 'PUT', 'PATCH', 'DELETE', 'GET', 'TRACE', 'x', '')
    .map((wanted) => ({ method: 'POST', headers: { 'X-HTTP-Method-Override': wanted } }));
  const other = fc.constantFrom(...ODD_METHODS, ...ROUTE_METHODS).map((method) => ({ method, headers: {} }));
  return fc.oneof(
    { arbitrary: own, weight: odd ? 1 : 20 },
    { arbitrary: override, weight: odd ? 2 : 1 },
    { arbitrary: other, weight: odd ? 6 : 1 },
  );
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
export const junkAuthorization = fc.oneof(
  fc.constantFrom(
    `Basic ${b64('admin:wrong-password')}`,
    `Basic ${b64('nobody:x')}`,
    `Basic ${b64('nocolon')}`,
    `Basic ${b64(':')}`,
    `Basic ${b64(`${'a'.repeat(3000)}:x`)}`,
    'Basic %%%',
    'Basic ',
    'Basic',
    'Bearer ',
    'Digest username="x"',
    'Flowhost-Local junk',
    'Flowhost-Local ',
  ),
  fc.string({ maxLength: 40 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
  fc.string({ maxLength: 40 }).map((s) => `Basic ${b64(s)}`),
);

function authArbitrary(trigger: boolean): fc.Arbitrary<Auth> {
  const junk = fc.oneof(
    junkAuthorization.map((value): Auth => ({ junk: { Authorization: value } })),
    fc.constantFrom<Auth>(
      { junk: { Cookie: 'flowhost_session=junk', 'X-WP-Nonce': 'junk' } },
      { junk: { Cookie: 'flowhost_session=', 'X-Flowhost-Nonce': '' } },
      { junk: { Cookie: '%ff=%ff; flowhost_session=%E0%A4%A' } },
    ),
  );
  return fc.oneof(
    { arbitrary: fc.constant<Auth>('admin'), weight: 10 },
    { arbitrary: fc.constant<Auth>('anonymous'), weight: 2 },
    { arbitrary: junk, weight: 1 },
    { arbitrary: fc.constant<Auth>('flow-token'), weight: trigger ? 4 : 0 },
  );
}

const extraHeaders = fc.oneof(
  { arbitrary: fc.constant<Record<string, string>>({}), weight: 12 },
  {
    arbitrary: fc.constantFrom<Record<string, string>>(
      { Accept: 'text/html' },
      { Accept: 'application/xml;q=1, */*;q=0' },
      { 'Accept-Encoding': 'gzip, br' },
      { 'Content-Encoding': 'gzip' },
      { 'Transfer-Encoding': 'chunked' },
      { Expect: '100-continue' },
      { 'X-Forwarded-For': '%ff, 1.2.3.4' },
      { 'X-Request-Id': '../../etc' },
      { 'Accept-Version': '~99' },
      { Origin: 'https://evil.example' },
      // restify routes the path of http://{Host}{url}: one it could not parse stopped the host.
      { Host: 'a b' },
      { Host: 'x/api' },
      { Host: '[' },
    ),
    weight: 1,
  },
);

const localAddress = fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 1, max: 254 })).map(([a, b]) => `127.0.${a}.${b}`);

// ---------------------------------------------------------------- the request

/**
 * Requests against one route. `odd` favours other methods and mangled paths (the
 * transport property); otherwise most requests use the route's own method and path shape.
 */
export function requestArbitrary(route: CompiledRoute, ctx: PlanContext, odd = false): fc.Arbitrary<FuzzRequest> {
  const trigger = ctx.isTrigger?.(route) ?? false;
  return fc
    .record({
      method: methodArbitrary(route, odd),
      path: pathArbitrary(route, ctx, odd),
      query: queryArbitrary(route, ctx),
      body: bodyArbitrary(route, ctx),
      auth: authArbitrary(trigger),
      headers: extraHeaders,
      from: localAddress,
    })
    .map(({ method, path, query, body, auth, headers, from }) => {
      const all: Record<string, string> = { ...headers, ...method.headers, ...('headers' in body ? body.headers : {}) };
      if (body.type !== undefined && body.body !== undefined) all['Content-Type'] = body.type;
      return new FuzzRequest(routeLabel(route), method.method, `${path}${query}`, all, body.body, auth, from);
    });
}

/** Paths no route template produces: absolute and asterisk forms, traversal, bad escapes. */
export const JUNK_PATHS = [
  '*',
  '/',
  '//',
  '/%ff',
  '/%E0%A4%A',
  '/%C0%AF',
  '/..',
  '/../..',
  '/api',
  '/api/',
  '/api/%ff',
  '/api//automation/v1/flows',
  '/api/automation/v1/../v1/flows',
  '/api/automation/v1/flows/..%2f..%2f',
  '/api/automation/v1/%2e%2e/%2e%2e/healthz',
  'http://example.com/healthz',
  '/healthz/',
  '/healthz?%ff',
  '/healthz/%ff',
  '/api/openapi.json/..',
  '/api/automation',
  '/api/automation/v1',
  '/api/automation/v1/',
  '/api/automation/v2/flows',
  `/api/automation/v1/${'a/'.repeat(500)}`,
  '/api/automation/v1/flows?%=%&&==',
] as const;

export const junkPathRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    path: fc.constantFrom(...JUNK_PATHS),
    method: fc.constantFrom(...ODD_METHODS, ...ROUTE_METHODS),
    auth: authArbitrary(false),
    from: localAddress,
    body: fc.option(junkBodyText, { freq: 3 }),
  })
  .map(
    ({ path, method, auth, from, body }) =>
      new FuzzRequest(
        '(no route)',
        method,
        path,
        body === null ? {} : { 'Content-Type': 'application/json' },
        body ?? undefined,
        auth,
        from,
      ),
  );
