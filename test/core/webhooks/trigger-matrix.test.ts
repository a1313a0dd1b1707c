// End to end over HTTP: POST /trigger/{flow_id} in HMAC mode, on every store, for every
// extract kind, signature encoding, timestamp format, algorithm and placeholder of the
// template language. Each case is one flow: a correctly signed request → 200 with a job id;
// the same request with one byte of the body changed, or signed with another secret (and
// the case's own extra variants) → 401 rest_unauthorized, with the expected reason in the
// flow's log. Signatures are computed here with node:crypto, independently of hmac-verify.
//
// Failed attempts are limited per remote address (20 per 5 minutes, real time, not the
// fake clock), and every request here comes from 127.0.0.1: each group of cases therefore
// gets its own host (a fresh limiter, and a fresh database on MongoDB), and a group that
// would send 20 refused requests or more fails at load time instead of seeing a 429.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import type { HmacAlgo, HmacTemplate } from '../../../core/webhooks/hmac-template.js';
import { testStores } from '../../support/test-stores.js';
import { handlerPlugin } from '../../support/handler-plugin.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const SECRET = 'matrix-secret-value-0123456789';
const OTHER_SECRET = 'other-secret-value-9876543210';
const TOLERANCE = 120;
/** The trigger's failed-attempt budget per remote address (core/webhooks/trigger-limits.ts). */
const FAILURES_PER_ADDRESS = 20;

const fixtures = handlerPlugin('trigger-matrix-fixtures', [
  defineHandler({
    slug: 'matrix-input',
    type: 'fetch',
    label: 'Matrix input',
    description: 'One item per run.',
    async fetch(ctx) {
      return [{ type: 'webhook', data: { id: `job-${ctx.jobId}` }, metadata: {} }];
    },
  }),
]);

// Requests and signing ---------------------------------------------------------------------

/** One request to the trigger, exactly as sent (query without '?'). */
interface Outgoing {
  body: string;
  headers?: Record<string, string>;
  query?: string;
  contentType?: string;
}

interface SignContext {
  secret: string;
  /** The time the sender signs at (the host's clock, or shifted from it). */
  now: Date;
  /** The trigger URL as the sender sees it (the test host's URL), with this query. */
  url: (query?: string) => string;
}

interface Refusal {
  name: string;
  /** What the flow's log must say about it. */
  reason: RegExp;
  request: (c: SignContext) => Outgoing;
}

interface Case {
  name: string;
  template: HmacTemplate;
  sign: (c: SignContext) => Outgoing;
  /** Refused variants besides the two every case has (body byte changed, other secret). */
  refused?: Refusal[];
}

const triggerPath = (flowId: number) => `/api/automation/v1/trigger/${flowId}`;
const hmac = (algo: HmacAlgo, secret: string, payload: string): Buffer => createHmac(algo, secret).update(payload, 'utf8').digest();
const unix = (now: Date) => String(Math.floor(now.getTime() / 1000));
const shifted = (c: SignContext, seconds: number): SignContext => ({ ...c, now: new Date(c.now.getTime() + seconds * 1000) });
const padded = (text: string) => text + '='.repeat((4 - (text.length % 4)) % 4);
/** ISO 8601 with a numeric offset, e.g. 2026-01-01T05:30:00+05:30 (whole seconds). */
const isoWithOffset = (now: Date, minutes: number) => {
  const local = new Date(now.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(minutes);
  return `${local}${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

const BODY = JSON.stringify({ event: 'ping', data: { id: 42 } });
/** The body with one byte changed ('ping' → 'pinG'). */
const tamper = (body: string): string => {
  assert.ok(body.includes('ping'), 'every case body carries "ping", the byte the tamper variant changes');
  return body.replace('ping', 'pinG');
};
/** A body whose sha256 signature (under SECRET, the body alone signed) satisfies `wanted`. */
const bodyWhere = (wanted: (signature: Buffer) => boolean): string => {
  for (let n = 0; n < 10_000; n++) {
    const body = JSON.stringify({ event: 'ping', n });
    if (wanted(hmac('sha256', SECRET, body))) return body;
  }
  throw new Error('bodyWhere: no body found');
};

const mismatch = /signature does not match any active secret/;
const hexHeader = (name: string, template: Partial<HmacTemplate> = {}): HmacTemplate => ({
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: name, extract: { kind: 'raw' }, encoding: 'hex' },
  ...template,
});

// The matrix -------------------------------------------------------------------------------

const extractCases: Case[] = [
  {
    name: 'raw: the whole header is the signature',
    template: hexHeader('X-Sig'),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': hmac('sha256', secret, BODY).toString('hex') } }),
  },
  {
    name: 'prefix: "sha256=" then the signature',
    template: hexHeader('X-Hub-Signature-256', {
      signature_source: { header: 'X-Hub-Signature-256', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
    }),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Hub-Signature-256': `sha256=${hmac('sha256', secret, BODY).toString('hex')}` } }),
    refused: [
      {
        name: 'the signature without its prefix',
        reason: /has no signature in the expected form/,
        request: ({ secret }) => ({ body: BODY, headers: { 'X-Hub-Signature-256': hmac('sha256', secret, BODY).toString('hex') } }),
      },
    ],
  },
  {
    name: 'kv_pairs with separator ";" (spaces trimmed, other keys ignored)',
    template: hexHeader('X-Sig', {
      signature_source: { header: 'X-Sig', extract: { kind: 'kv_pairs', key: 'v1', separator: ';' }, encoding: 'hex' },
    }),
    sign: ({ secret }) => ({
      body: BODY,
      headers: { 'X-Sig': `t=1; v0=${'ab'.repeat(32)}; v1=${hmac('sha256', secret, BODY).toString('hex')}` },
    }),
  },
  {
    name: 'kv_pairs with separator "," and pair_separator ":"',
    template: hexHeader('X-Sig', {
      signature_source: {
        header: 'X-Sig',
        extract: { kind: 'kv_pairs', key: 'sig', separator: ',', pair_separator: ':' },
        encoding: 'hex',
      },
    }),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `alg:sha256,sig:${hmac('sha256', secret, BODY).toString('hex')},kid:k1` } }),
    refused: [
      {
        name: 'the pair written with "=" instead of ":"',
        reason: /has no signature in the expected form/,
        request: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `alg=sha256,sig=${hmac('sha256', secret, BODY).toString('hex')}` } }),
      },
    ],
  },
  {
    name: 'regex: capture group 1 is the signature',
    template: hexHeader('Signature', {
      signature_source: { header: 'Signature', extract: { kind: 'regex', key: 'signature="([0-9a-f]+)"' }, encoding: 'hex' },
    }),
    sign: ({ secret }) => ({
      body: BODY,
      headers: { Signature: `keyId="k1",algorithm="hmac-sha256",signature="${hmac('sha256', secret, BODY).toString('hex')}"` },
    }),
  },
  {
    name: 'regex without a group: the full match is the signature',
    template: hexHeader('X-Sig', {
      signature_source: { header: 'X-Sig', extract: { kind: 'regex', key: '[0-9a-f]{64}' }, encoding: 'hex' },
    }),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `signed:${hmac('sha256', secret, BODY).toString('hex')};end` } }),
  },
  {
    name: 'regex written with /delimiters/i (case-insensitive)',
    template: hexHeader('X-Sig', {
      signature_source: { header: 'X-Sig', extract: { kind: 'regex', key: '/^SHA256=([0-9A-F]+)$/i' }, encoding: 'hex' },
    }),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `sha256=${hmac('sha256', secret, BODY).toString('hex')}` } }),
  },
];

// Bodies chosen so that each alphabet's own characters appear in the signature.
const BASE64_BODY = bodyWhere((s) => /[+/]/.test(s.toString('base64')));
const BASE64URL_BODY = bodyWhere((s) => /[-_]/.test(s.toString('base64url')));
const sigB64 = (algo: HmacAlgo, secret: string, body: string, encoding: 'base64' | 'base64url') =>
  hmac(algo, secret, body).toString(encoding);

const encodingCases: Case[] = [
  {
    name: 'hex, lower case',
    template: hexHeader('X-Sig'),
    sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': hmac('sha256', secret, BODY).toString('hex') } }),
  },
  {
    name: 'hex, UPPER case',
    template: hexHeader('X-Sig'),
    sign: ({ secret }) => {
      const hex = hmac('sha256', secret, BODY).toString('hex');
      assert.match(hex, /[a-f]/, 'the digest has letters to upper-case');
      return { body: BODY, headers: { 'X-Sig': hex.toUpperCase() } };
    },
  },
  {
    name: 'base64 (with "+" or "/" in it)',
    template: hexHeader('X-Sig', { signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64' } }),
    sign: ({ secret }) => ({ body: BASE64_BODY, headers: { 'X-Sig': sigB64('sha256', secret, BASE64_BODY, 'base64') } }),
    refused: [
      {
        name: 'the same signature in the base64url alphabet',
        reason: /is not valid base64/,
        request: ({ secret }) => ({ body: BASE64_BODY, headers: { 'X-Sig': padded(sigB64('sha256', secret, BASE64_BODY, 'base64url')) } }),
      },
    ],
  },
  {
    name: 'base64url without padding (with "-" or "_" in it)',
    template: hexHeader('X-Sig', { signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64url' } }),
    sign: ({ secret }) => {
      const signature = sigB64('sha256', secret, BASE64URL_BODY, 'base64url');
      assert.is.not(signature.length % 4, 0, 'a sha256 signature needs padding, so this one is really unpadded');
      return { body: BASE64URL_BODY, headers: { 'X-Sig': signature } };
    },
    refused: [
      {
        name: 'the same signature in the standard base64 alphabet',
        reason: /is not valid base64url/,
        request: ({ secret }) => ({
          body: BASE64URL_BODY,
          headers: { 'X-Sig': padded(sigB64('sha256', secret, BASE64URL_BODY, 'base64')) },
        }),
      },
    ],
  },
  {
    name: 'base64url with "=" padding',
    template: hexHeader('X-Sig', { signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64url' } }),
    sign: ({ secret }) => {
      const signature = padded(sigB64('sha256', secret, BASE64URL_BODY, 'base64url'));
      assert.ok(signature.endsWith('=') && !signature.endsWith('=='));
      return { body: BASE64URL_BODY, headers: { 'X-Sig': signature } };
    },
  },
  {
    name: 'base64url with "==" padding (sha512)',
    template: hexHeader('X-Sig', {
      algo: 'sha512',
      signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64url' },
    }),
    sign: ({ secret }) => {
      const signature = padded(sigB64('sha512', secret, BODY, 'base64url'));
      assert.ok(signature.endsWith('=='));
      return { body: BODY, headers: { 'X-Sig': signature } };
    },
  },
];

/** A timestamp case: signed with this timestamp text; also refused when stale and when in the future. */
const timestampCase = (name: string, template: HmacTemplate, sign: (c: SignContext) => Outgoing): Case => ({
  name,
  template: { ...template, tolerance_seconds: TOLERANCE },
  sign,
  refused: [
    {
      name: `older than tolerance_seconds (${TOLERANCE + 5} s ago)`,
      reason: /outside the 120 s window \(too old\)/,
      request: (c) => sign(shifted(c, -(TOLERANCE + 5))),
    },
    {
      name: `too far in the future (${TOLERANCE + 5} s ahead)`,
      reason: /outside the 120 s window \(in the future\)/,
      request: (c) => sign(shifted(c, TOLERANCE + 5)),
    },
  ],
});

const timestampCases: Case[] = [
  timestampCase(
    'unix seconds, in a header, signed as "{timestamp}.{body}"',
    hexHeader('X-Sig', { signed_template: '{timestamp}.{body}', timestamp_source: { header: 'X-Timestamp', format: 'unix' } }),
    ({ secret, now }) => ({
      body: BODY,
      headers: { 'X-Timestamp': unix(now), 'X-Sig': hmac('sha256', secret, `${unix(now)}.${BODY}`).toString('hex') },
    }),
  ),
  timestampCase(
    'unix_ms, in a query parameter',
    hexHeader('X-Sig', { signed_template: '{timestamp}:{body}', timestamp_source: { param: 'ts', format: 'unix_ms' } }),
    ({ secret, now }) => ({
      body: BODY,
      query: `ts=${now.getTime()}`,
      headers: { 'X-Sig': hmac('sha256', secret, `${now.getTime()}:${BODY}`).toString('hex') },
    }),
  ),
  timestampCase(
    'iso8601 (UTC, Z), beside the signature in one kv_pairs header',
    hexHeader('X-Sig', {
      signed_template: '{timestamp}.{body}',
      signature_source: { header: 'X-Sig', extract: { kind: 'kv_pairs', key: 'v1', separator: ',' }, encoding: 'hex' },
      timestamp_source: { header: 'X-Sig', extract: { kind: 'kv_pairs', key: 't', separator: ',' }, format: 'iso8601' },
    }),
    ({ secret, now }) => ({
      body: BODY,
      headers: { 'X-Sig': `t=${now.toISOString()},v1=${hmac('sha256', secret, `${now.toISOString()}.${BODY}`).toString('hex')}` },
    }),
  ),
  timestampCase(
    'iso8601 with a +05:30 offset',
    hexHeader('X-Sig', { signed_template: '{timestamp}|{body}', timestamp_source: { header: 'X-Date', format: 'iso8601' } }),
    ({ secret, now }) => {
      const ts = isoWithOffset(now, 330);
      return { body: BODY, headers: { 'X-Date': ts, 'X-Sig': hmac('sha256', secret, `${ts}|${BODY}`).toString('hex') } };
    },
  ),
];

const algoCase = (algo: HmacAlgo, other: HmacAlgo): Case => ({
  name: `${algo}`,
  template: hexHeader('X-Sig', {
    algo,
    signature_source: { header: 'X-Sig', extract: { kind: 'prefix', key: `${algo}=` }, encoding: 'hex' },
  }),
  sign: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `${algo}=${hmac(algo, secret, BODY).toString('hex')}` } }),
  refused: [
    {
      name: `signed with ${other} instead`,
      reason: mismatch,
      request: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': `${algo}=${hmac(other, secret, BODY).toString('hex')}` } }),
    },
  ],
});

const algoCases: Case[] = [algoCase('sha1', 'sha256'), algoCase('sha256', 'sha512'), algoCase('sha512', 'sha1')];

const FORM = 'application/x-www-form-urlencoded';
const FORM_BODY = 'shop=acme&event=ping';

const paramCases: Case[] = [
  {
    name: 'signature_source in a query parameter instead of a header',
    template: hexHeader('unused', { signature_source: { param: 'signature', extract: { kind: 'raw' }, encoding: 'hex' } }),
    sign: ({ secret }) => ({ body: BODY, query: `signature=${hmac('sha256', secret, BODY).toString('hex')}` }),
    refused: [
      {
        name: 'the same signature in a header of that name',
        reason: /signature parameter signature missing/,
        request: ({ secret }) => ({ body: BODY, headers: { signature: hmac('sha256', secret, BODY).toString('hex') } }),
      },
    ],
  },
  {
    name: '{param:shop} from the query string',
    template: hexHeader('X-Sig', { signed_template: '{param:shop}.{body}' }),
    sign: ({ secret }) => ({
      body: BODY,
      query: 'shop=acme',
      headers: { 'X-Sig': hmac('sha256', secret, `acme.${BODY}`).toString('hex') },
    }),
    refused: [
      {
        name: 'another shop under the same signature',
        reason: mismatch,
        request: ({ secret }) => ({
          body: BODY,
          query: 'shop=evil',
          headers: { 'X-Sig': hmac('sha256', secret, `acme.${BODY}`).toString('hex') },
        }),
      },
    ],
  },
  {
    name: '{param:shop} from a form body',
    template: hexHeader('X-Sig', { signed_template: '{param:shop}.{body}' }),
    sign: ({ secret }) => ({
      body: FORM_BODY,
      contentType: FORM,
      headers: { 'X-Sig': hmac('sha256', secret, `acme.${FORM_BODY}`).toString('hex') },
    }),
    refused: [
      {
        name: 'another shop in the query string, which comes first',
        reason: mismatch,
        request: ({ secret }) => ({
          body: FORM_BODY,
          contentType: FORM,
          query: 'shop=evil',
          headers: { 'X-Sig': hmac('sha256', secret, `acme.${FORM_BODY}`).toString('hex') },
        }),
      },
    ],
  },
  {
    name: '{param:shop} sent in both: the query value is the one signed',
    template: hexHeader('X-Sig', { signed_template: '{param:shop}.{body}' }),
    sign: ({ secret }) => ({
      body: 'shop=other&event=ping',
      contentType: FORM,
      query: 'shop=acme',
      headers: { 'X-Sig': hmac('sha256', secret, 'acme.shop=other&event=ping').toString('hex') },
    }),
    refused: [
      {
        name: 'signed with the form value instead',
        reason: mismatch,
        request: ({ secret }) => ({
          body: 'shop=other&event=ping',
          contentType: FORM,
          query: 'shop=acme',
          headers: { 'X-Sig': hmac('sha256', secret, 'other.shop=other&event=ping').toString('hex') },
        }),
      },
    ],
  },
];

const placeholderCases: Case[] = [
  {
    name: '{header:X-Shop-Domain}',
    template: hexHeader('X-Sig', { signed_template: '{header:X-Shop-Domain}.{body}' }),
    sign: ({ secret }) => ({
      body: BODY,
      headers: { 'X-Shop-Domain': 'acme.example', 'X-Sig': hmac('sha256', secret, `acme.example.${BODY}`).toString('hex') },
    }),
    refused: [
      {
        name: 'another header value under the same signature',
        reason: mismatch,
        request: ({ secret }) => ({
          body: BODY,
          headers: { 'X-Shop-Domain': 'evil.example', 'X-Sig': hmac('sha256', secret, `acme.example.${BODY}`).toString('hex') },
        }),
      },
      {
        name: 'the signed header left out',
        reason: /signed header X-Shop-Domain missing/,
        request: ({ secret }) => ({ body: BODY, headers: { 'X-Sig': hmac('sha256', secret, `acme.example.${BODY}`).toString('hex') } }),
      },
    ],
  },
  {
    name: '{url}: the public URL (the test host URL) + path + query',
    template: hexHeader('X-Sig', { signed_template: '{url}\n{body}' }),
    sign: ({ secret, url }) => ({
      body: BODY,
      query: 'source=matrix',
      headers: { 'X-Sig': hmac('sha256', secret, `${url('source=matrix')}\n${BODY}`).toString('hex') },
    }),
    refused: [
      {
        name: 'another query string under the same signature',
        reason: mismatch,
        request: ({ secret, url }) => ({
          body: BODY,
          query: 'source=other',
          headers: { 'X-Sig': hmac('sha256', secret, `${url('source=matrix')}\n${BODY}`).toString('hex') },
        }),
      },
    ],
  },
  {
    name: '{id} and {timestamp} (Standard Webhooks style: base64 "v1," entries separated by spaces)',
    template: {
      mode: 'hmac',
      algo: 'sha256',
      signed_template: '{id}.{timestamp}.{body}',
      signature_source: { header: 'webhook-signature', extract: { kind: 'prefix', key: 'v1,' }, encoding: 'base64', entry_separator: ' ' },
      timestamp_source: { header: 'webhook-timestamp', format: 'unix' },
      id_source: { header: 'webhook-id' },
      tolerance_seconds: TOLERANCE,
    },
    sign: ({ secret, now }) => {
      const signed = `msg_2x8Kq.${unix(now)}.${BODY}`;
      const entries = `v1,${hmac('sha256', 'decoy-secret-not-ours', signed).toString('base64')} v1,${hmac('sha256', secret, signed).toString('base64')}`;
      return { body: BODY, headers: { 'webhook-id': 'msg_2x8Kq', 'webhook-timestamp': unix(now), 'webhook-signature': entries } };
    },
    refused: [
      {
        name: 'another event id under the same signature',
        reason: mismatch,
        request: ({ secret, now }) => ({
          body: BODY,
          headers: {
            'webhook-id': 'msg_other',
            'webhook-timestamp': unix(now),
            'webhook-signature': `v1,${hmac('sha256', secret, `msg_2x8Kq.${unix(now)}.${BODY}`).toString('base64')}`,
          },
        }),
      },
    ],
  },
];

const groups: Array<{ name: string; cases: Case[] }> = [
  { name: 'extract kinds', cases: extractCases },
  { name: 'signature encodings', cases: encodingCases },
  { name: 'timestamp formats', cases: timestampCases },
  { name: 'algorithms', cases: algoCases },
  { name: 'parameters', cases: paramCases },
  { name: 'placeholders', cases: placeholderCases },
];

/** Every case's refused requests: the two common ones, then its own. */
const refusalsOf = (c: Case): Refusal[] => [
  { name: 'one byte of the body changed', reason: mismatch, request: (ctx) => ({ ...c.sign(ctx), body: tamper(c.sign(ctx).body) }) },
  { name: 'signed with another secret', reason: mismatch, request: (ctx) => c.sign({ ...ctx, secret: OTHER_SECRET }) },
  ...(c.refused ?? []),
];

for (const group of groups) {
  const refusals = group.cases.reduce((sum, c) => sum + refusalsOf(c).length, 0);
  if (refusals >= FAILURES_PER_ADDRESS)
    throw new Error(
      `trigger-matrix: group "${group.name}" sends ${refusals} refused requests from one address; split it (the trigger answers 429 from ${FAILURES_PER_ADDRESS} on)`,
    );
}

// The suites -------------------------------------------------------------------------------

async function send(t: TestHost, flowId: number, out: Outgoing): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${t.url}${triggerPath(flowId)}${out.query ? `?${out.query}` : ''}`, {
    method: 'POST',
    headers: { 'Content-Type': out.contentType ?? 'application/json', ...out.headers },
    body: out.body,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Body };
}

/** The flow's webhook-failure log messages, newest first. */
async function failureLog(t: TestHost, flowId: number): Promise<string[]> {
  const logs = await t.request<Body>('GET', '/logs', { query: { level: 'warning', flow_id: flowId, per_page: 100 } });
  assert.is(logs.status, 200, JSON.stringify(logs.body));
  return (logs.body.items as Body[])
    .map((e) => String(e.message))
    .filter((m) => m.startsWith(`Webhook authentication failed for flow ${flowId}:`));
}

for (const store of testStores('webhooks: trigger matrix')) {
  for (const group of groups) {
    type Ctx = { t: TestHost; pipelineId: number; stepId: string };
    const test = suite<Ctx>(`webhooks: HMAC trigger matrix, ${group.name} (${store.label})`);

    test.before(async (ctx) => {
      ctx.t = await createTestHost({ plugins: [fixtures], config: store.config() });
      ctx.pipelineId = (
        await ctx.t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Matrix', steps: [{ step_type: 'fetch' }] } })
      ).body.data.pipeline_id;
      ctx.stepId = (await ctx.t.request<Body>('GET', `/pipelines/${ctx.pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    });
    test.after(async (ctx) => ctx.t.stop());

    for (const c of group.cases) {
      test(c.name, async ({ t, pipelineId, stepId }) => {
        // One flow per case: its own template, rate-limit budget and log.
        const created = await t.request<Body>('POST', '/flows', {
          body: {
            pipeline_id: pipelineId,
            flow_name: `Matrix: ${c.name}`,
            flow_config: { [stepId]: { handler_slug: 'matrix-input', handler_config: {} } },
          },
        });
        assert.is(created.status, 200, JSON.stringify(created.body));
        const flowId = created.body.data.flow_id as number;
        const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
          body: { mode: 'hmac', template: c.template, secret: SECRET },
        });
        assert.is(enabled.status, 200, JSON.stringify(enabled.body));

        const ctx: SignContext = {
          secret: SECRET,
          now: t.clock.now(),
          url: (query) => `${t.url}${triggerPath(flowId)}${query ? `?${query}` : ''}`,
        };
        const ok = await send(t, flowId, c.sign(ctx));
        assert.is(ok.status, 200, `correctly signed: ${JSON.stringify(ok.body)} (log: ${(await failureLog(t, flowId)).join(' | ')})`);
        assert.is(ok.body.success, true);
        assert.is(ok.body.flow_id, flowId);
        assert.ok(Number.isInteger(ok.body.job_id) && ok.body.job_id > 0, `job_id ${ok.body.job_id}`);

        const refusals = refusalsOf(c);
        for (const [i, refusal] of refusals.entries()) {
          const res = await send(t, flowId, refusal.request(ctx));
          assert.is(res.status, 401, `${refusal.name}: ${res.status} ${JSON.stringify(res.body)}`);
          assert.is(res.body.code, 'rest_unauthorized', refusal.name);
          assert.is(res.body.data?.status, 401, refusal.name);
          const log = await failureLog(t, flowId);
          assert.is(log.length, i + 1, `${refusal.name}: one failure logged per refused request`);
          assert.match(log[0]!, refusal.reason, `${refusal.name}: logged reason`);
        }
      });
    }

    test.run();
  }
}
