import { defineAuthProvider, defineHandler, definePlugin, services } from '../../sdk/index.js';
import { appendRows, readRows, type SheetSource, type SheetTarget } from './sheets-api.js';

interface Settings {
  api_url: string;
  auth_url: string;
  token_url: string;
  userinfo_url: string;
}

const idPattern = '^[A-Za-z0-9_-]{10,100}$';
const range = { type: 'string', minLength: 1, maxLength: 200, title: 'Range', description: 'A1 notation, e.g. Sheet1!A1:F' } as const;

/** Settings of a handler on one range of one spreadsheet, with its own extra fields. */
const sheetSettings = (extra: Record<string, object>) => ({
  type: 'object',
  required: ['spreadsheet_id', 'range'],
  additionalProperties: false,
  properties: { spreadsheet_id: { type: 'string', pattern: idPattern, title: 'Spreadsheet id' }, range, ...extra },
});

/** Rows of a spreadsheet in and out (Sheets v4 values shape), one OAuth 2.0 provider for both. */
export default definePlugin({
  id: 'spreadsheet',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The spreadsheet fetch handler (rows of a range, the header row as field names) and spreadsheet-output (append a row).',
  settingsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      api_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://sheets.googleapis.com' },
      auth_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://accounts.google.com/o/oauth2/v2/auth' },
      token_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://oauth2.googleapis.com/token' },
      userinfo_url: { type: 'string', format: 'uri', pattern: '^https?://', default: 'https://openidconnect.googleapis.com/v1/userinfo' },
    },
  },
  deps: { handlers: services.handlers, authProviders: services.authProviders, settings: services.configOf<Settings>() },
  setup({ handlers, authProviders, settings }) {
    const api = () => settings.api_url.replace(/\/+$/, '');
    const auth = { type: 'oauth2' as const, fields: ['client_id', 'client_secret'], provider: 'spreadsheet' };
    authProviders.add(
      defineAuthProvider({
        key: 'spreadsheet',
        type: 'oauth2',
        label: 'Spreadsheet',
        fields: ['client_id', 'client_secret'],
        // offline + consent: the service returns a refresh token only when asked so.
        oauth2: () => ({
          issuer: new URL(settings.auth_url).origin,
          authorizationUrl: settings.auth_url,
          tokenUrl: settings.token_url,
          scopes: ['openid', 'email', 'https://www.googleapis.com/auth/spreadsheets'],
          extraParams: { access_type: 'offline', prompt: 'consent' },
        }),
        async account(token, fetch) {
          const me = (await fetch(settings.userinfo_url, { headers: { Authorization: `Bearer ${token}` } })).json<{
            email?: string;
            sub?: string;
          }>();
          return { username: me.email ?? '', id: me.sub ?? '' };
        },
      }),
    );
    handlers.add(
      defineHandler<SheetSource>({
        slug: 'spreadsheet',
        type: 'fetch',
        label: 'Spreadsheet rows',
        description: 'Rows of a range, the header row as field names; each row is processed once per flow step.',
        auth,
        settings: sheetSettings({
          key_column: {
            type: 'string',
            maxLength: 100,
            title: 'Key column',
            description: 'Header of the column that identifies a row (default: the whole row)',
          },
          max_items: { type: 'integer', minimum: 1, maximum: 50, default: 1, title: 'Items per run' },
        }),
        fetch: (ctx, source) => readRows(ctx, api(), source),
      }),
    );
    handlers.add(
      defineHandler<SheetTarget>({
        slug: 'spreadsheet-output',
        type: 'publish',
        label: 'Spreadsheet row',
        description: 'Appends one row per item, its fields in the columns given.',
        auth,
        settings: sheetSettings({
          columns: {
            type: 'array',
            maxItems: 26,
            items: { type: 'string', minLength: 1, maxLength: 100 },
            title: 'Columns',
            description: 'Item fields, in column order (default title, content, link)',
          },
        }),
        publish: (ctx, target, packets) => appendRows(ctx, api(), target, packets),
      }),
    );
  },
});
