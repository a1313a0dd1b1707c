import type { ProviderErrorCode } from './contributions.js';

/**
 * A model provider's failure, with a code a caller can act on and a message fit for an
 * administrator (it names the provider, quotes the provider's own words, never the key).
 */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | null;
  constructor(code: ProviderErrorCode, message: string, status: number | null = null) {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
    this.status = status;
  }
}

export const isProviderError = (error: unknown): error is ProviderError => error instanceof ProviderError;
