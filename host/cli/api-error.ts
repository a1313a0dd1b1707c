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

/**
 * The line a failed command leaves on stderr: the message, then the API's error code when
 * the API refused (`flowhost: Flow 12 does not exist (flow_not_found)`), so a script can
 * tell one refusal from another without parsing the words.
 */
export function errorLine(error: unknown, json = false): string {
  const message = error instanceof Error ? error.message : String(error);
  if (json)
    return jsonErrorLine(message, error instanceof CliError ? error.code : undefined, error instanceof CliError ? error.data : undefined);
  const code = error instanceof CliError && error.code ? ` (${error.code})` : '';
  return `flowhost: ${message}${code}\n`;
}

/**
 * Under `--json` a failure is one JSON line on stderr too (`{"error":{"message","code","data"}}`),
 * so a script reading the command's JSON parses its refusals the same way; stdout stays empty.
 */
export function jsonErrorLine(message: string, code?: string, data?: Record<string, unknown>): string {
  return `${JSON.stringify({ error: { message, ...(code ? { code } : {}), ...(data && Object.keys(data).length ? { data } : {}) } })}\n`;
}

/** Whether the command line asks for JSON (`--json` before any `--`). */
export function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--json' || a === '--json=true');
}
