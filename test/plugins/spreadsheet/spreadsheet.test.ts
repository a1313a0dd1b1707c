// spreadsheet and spreadsheet-output on both stores against a fake Sheets service:
// OAuth 2.0 with PKCE and offline access, rows in with the header as field names (each
// row once, blank rows skipped), rows out appended in the configured column order; item
// text that a spreadsheet would take for a formula arrives as the text it was (issue 30).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { startFakeSheets, type FakeSheets } from '../../support/fake-sheets.js';
import { authorizeInPopup } from '../../support/oauth-popup.js';
import { testStores } from '../../support/test-stores.js';
import type { EnteredCell } from '../../support/sheets-input.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
const SHEET = '1AbCdEfGhIjKlMnOp';

for (const store of testStores('spreadsheet: end to end')) {
  const test = suite<{ t: TestHost; fake: FakeSheets }>(`spreadsheet: end to end (${store.label})`);
  test.before(async (ctx) => {
    ctx.fake = await startFakeSheets();
    const base = ctx.fake.server.url;
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
        pluginSettings: {
          spreadsheet: {
            api_url: base,
            auth_url: `${base}/o/oauth2/v2/auth`,
            token_url: `${base}/token`,
            userinfo_url: `${base}/v1/userinfo`,
          },
        },
      },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.fake.server.close();
  });

  test('connects with PKCE; rows come in keyed by a column (blank rows skipped); rows go out in column order', async ({ t, fake }) => {
    await t.request('PUT', '/auth/spreadsheet-output', { body: { client_id: fake.app.id, client_secret: fake.app.secret } });
    const done = await authorizeInPopup(t, 'spreadsheet');
    assert.match(done.html, /Connected Spreadsheet account ada@example\.org/, done.html + JSON.stringify(fake.refusals));
    const status = await t.request<Body>('GET', '/auth/spreadsheet-output/status');
    assert.is(status.body.data.authenticated, true);
    const fetchRows = {
      type: 'fetch',
      handler_slug: 'spreadsheet',
      handler_config: { spreadsheet_id: SHEET, range: 'Sheet1!A1:C', key_column: 'id', max_items: 10 },
    };
    const out = {
      type: 'publish',
      handler_slug: 'spreadsheet-output',
      handler_config: { spreadsheet_id: SHEET, range: 'Archive!A1', columns: ['id', 'title'] },
    };
    const first = await t.executeAndWait({ workflow: { steps: [fetchRows, out] } });
    assert.is(first.status, 'completed', JSON.stringify(first));
    assert.equal(fake.appended, [
      ['1', 'First'],
      ['2', 'Second'],
    ]);
    assert.equal(fake.refusals, []);
  });

  test('item text starting with = + - @, a tab, a carriage return or an apostrophe lands as that text, never a formula; numbers stay numbers', async ({
    t,
    fake,
  }) => {
    const titles = [
      '=HYPERLINK("https://evil.test/","Click")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTabbed',
      '\rCarriage',
      "'quoted",
      '-12.5',
      '42',
      'Plain title',
    ];
    fake.rows = [['id', 'title'], ...titles.map((title, i) => [String(100 + i), title])];
    fake.appended.length = 0;
    fake.entered.length = 0;
    const fetchRows = {
      type: 'fetch',
      handler_slug: 'spreadsheet',
      handler_config: { spreadsheet_id: SHEET, range: 'Feed!A1:B', key_column: 'id', max_items: 20 },
    };
    const out = {
      type: 'publish',
      handler_slug: 'spreadsheet-output',
      handler_config: { spreadsheet_id: SHEET, range: 'Archive!A1', columns: ['id', 'title'] },
    };
    const run = await t.executeAndWait({ workflow: { steps: [fetchRows, out] } });
    assert.is(run.status, 'completed', JSON.stringify(run));
    assert.equal(fake.refusals, []);
    const text = (value: string): EnteredCell => ({ type: 'text', value });
    const number = (value: number): EnteredCell => ({ type: 'number', value });
    assert.equal(
      fake.entered.map((row) => row[1]),
      [
        text('=HYPERLINK("https://evil.test/","Click")'),
        text('+1+2'),
        text('-2+3'),
        text('@SUM(A1)'),
        text('\tTabbed'),
        text('\rCarriage'),
        text("'quoted"),
        number(-12.5),
        number(42),
        text('Plain title'),
      ],
    );
    assert.ok(
      fake.entered.flat().every((cell) => cell.type !== 'formula'),
      'no live formula in the sheet',
    );
    assert.equal(
      fake.entered.map((row) => row[0]),
      titles.map((_, i) => number(100 + i)),
      'ids are still numbers',
    );
  });

  test.run();
}
