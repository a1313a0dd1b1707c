// A fake AT Protocol server (a PDS) on 127.0.0.1: createSession checks the handle and app
// password, createRecord checks the bearer and the post record (its facets must point at
// the link's UTF-8 byte offsets) and answers a real CIDv1 of the record, as the client
// library validates responses strictly.
import { createHash } from 'node:crypto';
import { createFakeServer, type FakeReply, type FakeServer } from '../../sdk/testing/index.js';

export interface FakePds {
  server: FakeServer;
  readonly account: { handle: string; password: string; did: string };
  records: Array<{
    text: string;
    facets: Array<{ index: { byteStart: number; byteEnd: number }; features: Array<{ $type: string; uri?: string }> }>;
  }>;
  refusals: string[];
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** CIDv1, dag-cbor codec, sha2-256 multihash, multibase base32 ('b'). */
export function cidOf(content: string): string {
  return `b${base32(Buffer.concat([Buffer.from([0x01, 0x71, 0x12, 0x20]), createHash('sha256').update(content).digest()]))}`;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: Record<string, unknown>) =>
  `${b64url({ alg: 'ES256K', typ: 'at+jwt' })}.${b64url(payload)}.${Buffer.from('signature').toString('base64url')}`;

export async function startFakePds(): Promise<FakePds> {
  const account = { handle: 'ada.example.social', password: 'abcd-efgh-ijkl-mnop', did: 'did:plc:ewvi7nxzyoun6zhxrhs64oiz' };
  const access = jwt({
    scope: 'com.atproto.appPass',
    sub: account.did,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 7200,
  });
  const state: FakePds = { server: undefined as never, account, records: [], refusals: [] };
  const refuse = (error: string, message: string, status = 400): FakeReply => (
    state.refusals.push(message), { status, body: { error, message } }
  );
  state.server = await createFakeServer((req): FakeReply => {
    const path = new URL(`${state.server.url}${req.url}`).pathname;
    if (req.method === 'POST' && path === '/xrpc/com.atproto.server.createSession') {
      const { identifier, password } = req.json<{ identifier?: string; password?: string }>();
      if (identifier !== account.handle || password !== account.password)
        return refuse('AuthenticationRequired', 'Invalid identifier or password', 401);
      return {
        body: {
          accessJwt: access,
          refreshJwt: jwt({ scope: 'com.atproto.refresh', sub: account.did, exp: Math.floor(Date.now() / 1000) + 86400 }),
          handle: account.handle,
          did: account.did,
          active: true,
        },
      };
    }
    if (req.headers.authorization !== `Bearer ${access}`) return refuse('AuthenticationRequired', `bad bearer on ${path}`, 401);
    if (req.method === 'POST' && path === '/xrpc/com.atproto.repo.createRecord') {
      const body = req.json<{
        repo?: string;
        collection?: string;
        record?: { $type?: string; text?: string; createdAt?: string; facets?: FakePds['records'][number]['facets'] };
      }>();
      if (body.repo !== account.did && body.repo !== account.handle) return refuse('InvalidRequest', 'repo is not the session account');
      if (body.collection !== 'app.bsky.feed.post' || body.record?.$type !== 'app.bsky.feed.post')
        return refuse('InvalidRequest', 'not a post record');
      const text = body.record.text ?? '';
      if ([...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length > 300)
        return refuse('InvalidRequest', 'text over 300 graphemes');
      for (const facet of body.record.facets ?? []) {
        const slice = Buffer.from(text).subarray(facet.index.byteStart, facet.index.byteEnd).toString('utf8');
        const link = facet.features.find((f) => f.$type === 'app.bsky.richtext.facet#link');
        if (link && link.uri !== slice)
          return refuse('InvalidRequest', `facet bytes ${facet.index.byteStart}-${facet.index.byteEnd} are "${slice}", not ${link.uri}`);
      }
      state.records.push({ text, facets: body.record.facets ?? [] });
      const rkey = `3l${String(state.records.length).padStart(11, '2')}`;
      return {
        body: { uri: `at://${account.did}/app.bsky.feed.post/${rkey}`, cid: cidOf(JSON.stringify(body.record)), validationStatus: 'valid' },
      };
    }
    return refuse('MethodNotImplemented', `unknown method ${path}`, 501);
  });
  return state;
}
