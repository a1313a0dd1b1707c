/**
 * ApiError is the one error shape every route may throw: the host turns it into the
 * spec's error body `{ code, message, data: { status, ...data } }`.
 */
const API_ERROR = Symbol.for('flowhost.api-error');

export class ApiError extends Error {
  /** Brand: a plugin built against its own copy of the SDK throws errors the host still knows. */
  readonly [API_ERROR] = true;
  constructor(
    readonly code: string,
    message: string,
    readonly status: number = 400,
    readonly data: Record<string, unknown> = {},
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> & { status: number } } {
    return { code: this.code, message: this.message, data: { ...this.data, status: this.status } };
  }
}

/** ApiError from this copy of the SDK or any other (checked by brand, not `instanceof`). */
export function isApiError(value: unknown): value is ApiError {
  return !!value && typeof value === 'object' && (value as Record<symbol, unknown>)[API_ERROR] === true;
}

/**
 * The older helpers: any code, any message, the status fixed by the helper. They stay for
 * third-party plugins written against them; new code throws declared codes instead
 * (`apiError` for the core's, `definePluginErrors` for a plugin's own), which the built-ins
 * do (test/core/errors/catalogue.test.ts keeps it so).
 * @deprecated use `apiError(code, ...)` or a `definePluginErrors` catalogue.
 */
export const badRequest = (code: string, message: string, data?: Record<string, unknown>) => new ApiError(code, message, 400, data);
export const notFound = (code: string, message: string, data?: Record<string, unknown>) => new ApiError(code, message, 404, data);
export const forbidden = (message = 'Sorry, you are not allowed to do that.') => new ApiError('rest_forbidden', message, 403);
export const notLoggedIn = (message = 'You are not currently logged in.') => new ApiError('rest_not_logged_in', message, 401);
export const conflict = (code: string, message: string, data?: Record<string, unknown>) => new ApiError(code, message, 409, data);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError(
    'rest_too_many_requests',
    message,
    429,
    { retry_after: retryAfterSeconds },
    {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    },
  );

/** An error raised while wiring plugins; always names the plugin at fault. */
export class PluginError extends Error {
  constructor(
    readonly pluginId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Plugin '${pluginId}': ${message}`, options);
    this.name = 'PluginError';
  }
}
