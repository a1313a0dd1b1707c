import { createHash } from 'node:crypto';
import { fetchHonouringRetryAfter, type DataPacket, type HandlerContext } from '../../sdk/index.js';
import { cellText } from './cell-text.js';

export interface SheetSource {
  spreadsheet_id: string;
  /** A1 range, e.g. `Sheet1!A1:F`; the first row holds the field names. */
  range: string;
  /** The column (by header name) whose value identifies a row; default: the row's content. */
  key_column?: string;
}

export interface SheetTarget {
  spreadsheet_id: string;
  range: string;
  /** Which packet data fields fill the appended row, in order. */
  columns?: string[];
}

function token(ctx: HandlerContext): string {
  const value = ctx.credentials?.tokens?.access_token;
  if (!value)
    throw new Error('The spreadsheet account is not connected: save its client keys and authorize it (GET /auth/spreadsheet/status)');
  return value;
}

async function failOn401(ctx: HandlerContext, status: number, message: string): Promise<never> {
  if (status === 401) await ctx.credentials?.markFailed('invalid_token', `The spreadsheet service refused the access token: ${message}`);
  throw new Error(`The spreadsheet service answered HTTP ${status}: ${message}`);
}

const valuesUrl = (api: string, id: string, range: string) =>
  `${api}/v4/spreadsheets/${encodeURIComponent(id)}/values/${encodeURIComponent(range)}`;

/**
 * Rows of a range (Sheets v4 values shape), the header row naming the fields. A row's
 * identity is its key column's value when one is set, else a hash of its content.
 */
export async function readRows(ctx: HandlerContext, api: string, source: SheetSource): Promise<DataPacket[]> {
  const response = await fetchHonouringRetryAfter(
    ctx.fetch,
    `${valuesUrl(api, source.spreadsheet_id, source.range)}?majorDimension=ROWS`,
    { headers: { Authorization: `Bearer ${token(ctx)}` } },
    'The spreadsheet service',
  );
  const body = (() => {
    try {
      return response.json<{ values?: string[][]; error?: { message?: string } }>();
    } catch {
      return {} as { values?: string[][]; error?: { message?: string } };
    }
  })();
  if (!response.ok) return failOn401(ctx, response.status, body.error?.message ?? 'no values');
  const [header = [], ...rows] = body.values ?? [];
  return rows
    .filter((row) => row.some((cell) => String(cell).trim() !== ''))
    .map((row) => {
      const data: Record<string, unknown> = Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
      const key = source.key_column ? String(data[source.key_column] ?? '') : '';
      const itemId = key
        ? `${source.key_column}:${key}`
        : `row:${createHash('sha256').update(JSON.stringify(row)).digest('hex').slice(0, 32)}`;
      return { type: 'sheet_row', data, metadata: { item_id: itemId, spreadsheet_id: source.spreadsheet_id } };
    });
}

/**
 * Appends one row per packet (`values:append`, USER_ENTERED), the packet's fields in
 * `columns` order; text that would be read as a formula is sent as text (cell-text.ts).
 */
export async function appendRows(ctx: HandlerContext, api: string, target: SheetTarget, packets: DataPacket[]): Promise<DataPacket[]> {
  const columns = target.columns?.length ? target.columns : ['title', 'content', 'link'];
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const row = columns.map((field) => cellText((packet.data as Record<string, unknown>)[field]));
    const url = `${valuesUrl(api, target.spreadsheet_id, target.range)}:append?valueInputOption=USER_ENTERED&insertDataOption=INSERT_ROWS`;
    const response = await fetchHonouringRetryAfter(
      ctx.fetch,
      url,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${token(ctx)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ range: target.range, majorDimension: 'ROWS', values: [row] }),
      },
      'The spreadsheet service',
    );
    let body: { updates?: { updatedRange?: string }; error?: { message?: string } } = {};
    try {
      body = response.json();
    } catch {
      // not JSON: the status says enough
    }
    if (!response.ok) await failOn401(ctx, response.status, body.error?.message ?? 'append failed');
    const updatedRange = body.updates?.updatedRange ?? '';
    out.push({
      ...packet,
      metadata: {
        ...packet.metadata,
        published_id: updatedRange,
        published_url: `https://docs.google.com/spreadsheets/d/${target.spreadsheet_id}`,
        shortened: false,
      },
    });
  }
  return out;
}
