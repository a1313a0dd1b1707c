/** Fetch for user-given URLs: refuses private and loopback targets unless allowed. */
export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export interface GuardedResponse {
  status: number;
  ok: boolean;
  /** The final URL after redirects. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

export type GuardedFetch = (url: string, init?: GuardedRequestInit) => Promise<GuardedResponse>;

export class UrlRefusedError extends Error {
  readonly code = 'url_refused';
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export class FetchLimitError extends Error {
  constructor(
    readonly code: 'timeout' | 'too_large' | 'too_many_redirects',
    message: string,
  ) {
    super(message);
    this.name = 'FetchLimitError';
  }
}
