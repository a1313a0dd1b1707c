import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchHonouringRetryAfter } from '../../../sdk/index.js';
import type { GuardedResponse } from '../../../sdk/index.js';

const answer = (status: number, headers: Record<string, string> = {}): GuardedResponse => ({
  status,
  ok: status < 300,
  url: 'http://x',
  headers,
  body: Buffer.alloc(0),
  text: () => '',
  json: () => ({}) as never,
});

const test = suite('retry-after: a 429 waits and retries once, with a fresh request');

test('waits Retry-After seconds, builds the request again, and returns the second answer', async () => {
  const seen: string[] = [];
  let calls = 0;
  const fetch = async (_url: string, init?: { headers?: Record<string, string> }) => (
    seen.push(init?.headers?.n ?? ''), ++calls === 1 ? answer(429, { 'retry-after': '0' }) : answer(201)
  );
  let built = 0;
  const res = await fetchHonouringRetryAfter(fetch, 'http://x', () => ({ headers: { n: `nonce-${++built}` } }), 'Svc');
  assert.is(res.status, 201);
  assert.equal(seen, ['nonce-1', 'nonce-2']);
});

test('a wait over 30 s, none given, or a second 429 fails saying when to retry', async () => {
  const always = (h: Record<string, string>) => async () => answer(429, h);
  for (const [headers, pattern] of [
    [{ 'retry-after': '120' }, /retry after 120 s/],
    [{}, /retry after a while/],
    [{ 'retry-after': '0' }, /still rate limiting/],
  ] as const) {
    try {
      await fetchHonouringRetryAfter(always(headers), 'http://x', undefined, 'Svc');
      assert.unreachable();
    } catch (error) {
      assert.match((error as Error).message, pattern);
    }
  }
});

test.run();
