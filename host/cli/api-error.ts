import { CliError } from './admin-client.js';

/** What the API says of a missing record ("Flow 12 not found", code flow_not_found). */
const MISSING = /^(Flow|Job|Pipeline) (\d+) not found$/;

/**
 * The CliError for an API error answer. A missing flow, job or pipeline is said plainly
 * ("Flow 12 does not exist"): the user typed that id, and "not found" reads like a
 * connection problem. Every other message is the server's own.
 */
export function apiError(payload: Record<string, unknown>, status: number): CliError {
  const code = typeof payload.code === 'string' ? payload.code : undefined;
  const data = (payload.data as Record<string, unknown> | undefined) ?? undefined;
  const message = String(payload.message ?? `HTTP ${status}`);
  const missing = code?.endsWith('_not_found') ? MISSING.exec(message) : null;
  return new CliError(missing ? `${missing[1]} ${missing[2]} does not exist` : message, code, data);
}
