// A fake spreadsheet service (Sheets v4 values shape + its OAuth 2.0 endpoints) on
// 127.0.0.1: authorization (offline access with consent required, PKCE S256 checked),
// token exchange with the secret in the body, userinfo, values get and values:append.
// An append is read the way the service reads it (sheets-input.ts): `entered` holds what
// the cells became — text, numbers, or live formulas.
import { createHash } from 'node:crypto';
import { createFakeServer, type FakeReply, type FakeServer } from '../../sdk/testing/index.js';
import { enteredCell, type EnteredCell, type ValueInputOption } from './sheets-input.js';

export interface FakeSheets {
  server: FakeServer;
  readonly app: { id: string; secret: string };
  rows: string[][];
  /** Each appended row as sent. */
  appended: unknown[][];
  /** Each appended row as the service stored it: what a user opening the sheet sees. */
  entered: EnteredCell[][];
  refusals: string[];
}

export async function startFakeSheets(): Promise<FakeSheets> {
  const app = { id: 'sheets-client.apps.example', secret: 'sheets-secret-0987654321' };
  const codes = new Map<string, { redirect: string; challenge: string }>();
  const token = 'ya29.fake-access';
  const state: FakeSheets = {
    server: undefined as never,
    app,
    rows: [
      ['id', 'title', 'content'],
      ['1', 'First', 'Row one'],
      ['2', 'Second', 'Row two'],
      ['', '', ''],
    ],
    appended: [],
    entered: [],
    refusals: [],
  };
  const refuse = (reason: string, status = 400): FakeReply => (
    state.refusals.push(reason), { status, body: { error: { code: status, message: reason } } }
  );
  state.server = await createFakeServer((req): FakeReply => {
    const url = new URL(`${state.server.url}${req.url}`);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const q = Object.fromEntries(url.searchParams);
      if (
        q.client_id !== app.id ||
        q.access_type !== 'offline' ||
        q.prompt !== 'consent' ||
        q.code_challenge_method !== 'S256' ||
        !q.code_challenge
      )
        return refuse(`auth: bad request ${JSON.stringify(q)}`);
      const code = `4/fake-${codes.size + 1}`;
      codes.set(code, { redirect: q.redirect_uri!, challenge: q.code_challenge });
      const back = new URL(q.redirect_uri!);
      back.searchParams.set('state', q.state!);
      back.searchParams.set('code', code);
      return { status: 302, headers: { location: back.toString() }, body: '' };
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = Object.fromEntries(new URLSearchParams(req.body));
      if (form.client_id !== app.id || form.client_secret !== app.secret) return refuse('token: bad client', 401);
      const pending = codes.get(form.code ?? '');
      if (!pending || pending.redirect !== form.redirect_uri) return refuse('token: bad code');
      const challenge = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (challenge !== pending.challenge) return refuse('token: PKCE verifier does not match the challenge');
      codes.delete(form.code!);
      return {
        body: {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 3599,
          refresh_token: '1//fake-refresh',
          scope: 'openid email https://www.googleapis.com/auth/spreadsheets',
        },
      };
    }
    if (req.headers.authorization !== `Bearer ${token}`) return refuse(`bad bearer on ${url.pathname}`, 401);
    if (url.pathname === '/v1/userinfo') return { body: { sub: '1098', email: 'ada@example.org' } };
    const values = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/:]+)(:append)?$/.exec(url.pathname);
    if (values && req.method === 'GET' && !values[3])
      return { body: { range: decodeURIComponent(values[2]!), majorDimension: 'ROWS', values: state.rows } };
    if (values && req.method === 'POST' && values[3]) {
      const option = url.searchParams.get('valueInputOption');
      // The service requires one of the two, and refuses anything else.
      if (option !== 'USER_ENTERED' && option !== 'RAW')
        return refuse(`append: valueInputOption must be USER_ENTERED or RAW, got ${String(option)}`);
      const body = req.json<{ values?: unknown[][] }>();
      if (!Array.isArray(body.values) || body.values.length !== 1 || !Array.isArray(body.values[0]))
        return refuse('append: one row expected');
      const cells = body.values[0].map((value) => enteredCell(value, option as ValueInputOption));
      const invalid = cells.find((cell): cell is string => typeof cell === 'string');
      if (invalid) return refuse(`append: ${invalid}`);
      state.appended.push(body.values[0]);
      state.entered.push(cells as EnteredCell[]);
      const rowNumber = state.rows.length + state.appended.length;
      return { body: { spreadsheetId: values[1], updates: { updatedRange: `Sheet1!A${rowNumber}:C${rowNumber}`, updatedRows: 1 } } };
    }
    return { status: 404, body: { error: { code: 404, message: 'not found' } } };
  });
  return state;
}
