/** wp/v2's request parameters and answer fields: lists, dates, raw text, meta, term names, service errors in WordPress's shape. */
import { type ApiError, isApiError } from '../../errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RouteRequest } from '../../kernel/routes.js';
import { ksesTitle, textField } from '../kses.js';
import { apiError } from '../../errors/catalogue.js';
import type { PostQuery } from '../model.js';

export type Context = 'view' | 'edit' | 'embed';

/** WordPress's `orderby` values as the content store's sort fields (`include` and `relevance` sort by date, then reorder or not). */
export const ORDERBY = {
  date: 'date',
  relevance: 'date',
  id: 'post_id',
  title: 'title',
  slug: 'slug',
  modified: 'updated_at',
  include: 'date',
} as const satisfies Record<string, NonNullable<PostQuery['orderby']>>;
export type Query = Record<string, unknown>;
export type Req = RouteRequest<Record<string, unknown>, Query, Record<string, unknown>>;

// ---------- helpers ----------

/** WordPress's rest_authorization_required_code(): 401 for strangers, 403 for users. */

export function invalidParam(param: string, message: string): ApiError {
  return apiError('rest_invalid_param', { message: `Invalid parameter(s): ${param}`, data: { params: { [param]: message }, details: {} } });
}

/** `1,2,3`, `a[]=1&a[]=2` or both: the values, split and trimmed. */
export function listOf(value: unknown): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((item) => String(item).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A list parameter of strings (slugs, statuses): at most 100 entries. */
export function stringList(query: Query, name: string): string[] {
  const items = listOf(query[name]);
  if (items.length > 100) throw invalidParam(name, `${name} takes at most 100 values.`);
  return items;
}

export function idList(query: Query, name: string): number[] | undefined {
  if (query[name] === undefined) return undefined;
  const items = listOf(query[name]);
  if (items.length > 100) throw invalidParam(name, `${name} takes at most 100 ids.`);
  return items.map((item) => {
    const id = /^\d{1,15}$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) throw invalidParam(name, `${name}[${item}] is not of type integer.`);
    return id;
  });
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date (WordPress's rest_parse_date). Without an offset it is site time,
 * which is UTC on this host (it has no time-zone setting), so `date` and `date_gmt` agree.
 */
export function parseDate(value: unknown, param: string): Date {
  const text = String(value).trim();
  const m = DATE.exec(text);
  const [, mo, d, h, mi, s] = m ? m.slice(1, 7).map((v) => Number(v ?? 0)) : [];
  const valid = m && mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 23 && mi! <= 59 && s! <= 59;
  const offset = m?.[7] ? (m[7].toUpperCase() === 'Z' ? 'Z' : `${m[7].slice(0, 3)}:${m[7].slice(-2)}`) : 'Z';
  const iso = m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${offset}` : '';
  const date = valid ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1000 || date.getUTCFullYear() > 9999) {
    throw invalidParam(param, `Invalid date.`);
  }
  return date;
}

/** `YYYY-MM-DDTHH:MM:SS`, as WordPress writes dates. */
export const wpDate = (date: Date) => date.toISOString().slice(0, 19);

/** Service input errors (400 invalid_post / invalid_term) in WordPress's shape. */
export async function wpErrors<T>(run: () => Promise<T>, fieldNames: Record<string, string> = {}): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isApiError(error) && error.status === 400 && ['invalid_post', 'invalid_term'].includes(error.code)) {
      const field = String(error.data.field ?? 'body');
      throw invalidParam(fieldNames[field] ?? field, error.message);
    }
    throw error;
  }
}

export const rawText = (value: unknown): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : String((value as { raw?: unknown }).raw ?? '');

/** Meta as answered: the keys that are not WordPress-protected (`_`...). */
export const publicMeta = (meta: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('_')));

/** A term name is plain text for everyone, in one stored form (WordPress's pre_term_name filters). */
export const termName = (name: string) => textField(name);

/** A term description gets kses unless the user has unfiltered_html (pre_term_description). */
export const termDescription = (text: string, user: Principal | null) => (user?.can('unfiltered_html') ? text : ksesTitle(text));
