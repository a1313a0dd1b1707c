/**
 * An error catalogue: each code declared once with its HTTP status and default message,
 * and a typed factory that only accepts declared codes. A site names the code and, where
 * needed, a more precise message and data; it cannot give the code another status, so
 * two sites cannot disagree about what a client sees for one code. docs/api.md's error
 * tables are generated from the catalogues (scripts/error-table.mjs).
 */
import { ApiError } from '../errors.js';

/**
 * How a code's status is chosen:
 * - a number: always that status;
 * - a list: the site picks one (`status`), e.g. `rest_post_invalid_id` is 404 for the post
 *   in the path and 400 for a post named in the body;
 * - `'auth'`: WordPress's rest_authorization_required_code, 401 for an anonymous caller
 *   and 403 for a signed-in one (the site gives `user`);
 * - `'4xx'`: a client error whose status comes from elsewhere (the HTTP layer's own).
 */
export type ErrorStatus = number | readonly number[] | 'auth' | '4xx';

export interface ErrorEntry {
  readonly status: ErrorStatus;
  /** Used when the site gives none; the docs' table shows it when `when` is absent. */
  readonly message: string;
  /** When a client gets it, for the docs' table. */
  readonly when?: string;
}

export type ErrorEntries = Readonly<Record<string, ErrorEntry>>;

export interface ErrorOptions {
  /** A more precise message than the catalogue's (what was wrong, with which value). */
  message?: string;
  /** Extra fields of the body's `data` (beside `status`). */
  data?: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
}

/** What the site must add to choose the status, by the entry's kind of status. */
export type StatusChoice<S extends ErrorStatus> = S extends number
  ? { status?: S }
  : S extends readonly (infer N)[]
    ? { status: N }
    : S extends 'auth'
      ? { /** The caller: absent for an anonymous request (401), present otherwise (403). */ user: unknown }
      : { status: number };

/** The factory's arguments after the code: optional when the status is fixed. */
export type ErrorArgs<S extends ErrorStatus> = S extends number
  ? [options?: ErrorOptions & StatusChoice<S>]
  : [options: ErrorOptions & StatusChoice<S>];

export interface ErrorFactory<E extends ErrorEntries> {
  /** The error for a declared code, ready to throw. */
  <C extends keyof E & string>(code: C, ...args: ErrorArgs<E[C]['status']>): ApiError;
  /** Who declared these codes: 'core' or a plugin id. */
  readonly owner: string;
  readonly entries: E;
}

/** Every status a code can be sent with (for docs and checks); '4xx' is any client error. */
export function statusesOf(entry: ErrorEntry): number[] | '4xx' {
  if (entry.status === 'auth') return [401, 403];
  if (entry.status === '4xx') return '4xx';
  return typeof entry.status === 'number' ? [entry.status] : [...entry.status];
}

function statusFor(owner: string, code: string, entry: ErrorEntry, options: Record<string, unknown>): number {
  const { status } = entry;
  if (status === 'auth') return options.user ? 403 : 401;
  const chosen = options.status;
  if (typeof status === 'number') {
    if (chosen !== undefined && chosen !== status)
      throw new Error(`Error '${code}' (${owner}) is declared ${status}, not ${String(chosen)}`);
    return status;
  }
  if (status === '4xx') {
    if (typeof chosen === 'number' && chosen >= 400 && chosen < 500) return chosen;
    throw new Error(`Error '${code}' (${owner}) needs a 4xx status, got ${String(chosen)}`);
  }
  if (typeof chosen === 'number' && status.includes(chosen)) return chosen;
  throw new Error(`Error '${code}' (${owner}) is declared ${status.join(' or ')}, not ${String(chosen)}`);
}

export function defineErrors<const E extends ErrorEntries>(owner: string, entries: E): ErrorFactory<E> {
  const make = (code: string, options: ErrorOptions & Record<string, unknown> = {}): ApiError => {
    const entry = Object.hasOwn(entries, code) ? entries[code] : undefined;
    // Reachable only through a cast: a typo must not become a silent new code.
    if (!entry) throw new Error(`Error '${code}' is not declared in the ${owner} error catalogue`);
    return new ApiError(code, options.message ?? entry.message, statusFor(owner, code, entry, options), options.data, options.headers);
  };
  return Object.assign(make, { owner, entries }) as ErrorFactory<E>;
}
