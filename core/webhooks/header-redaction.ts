/**
 * The request headers a flow may see in `initial_data.webhook_trigger.headers`: anything
 * that could carry a credential (signatures, tokens, cookies, API keys) is left out, by the
 * spec's name pattern, so flow logs and AI steps never receive it.
 */
const CREDENTIAL_NAME = /(secret|token|sig|hmac|signature|auth|password|bearer|api[-_]?key)/i;
const ALWAYS_DROPPED = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** True when a header of this name must not be passed to the flow. */
export function isCredentialHeader(name: string): boolean {
  return ALWAYS_DROPPED.has(name.toLowerCase()) || CREDENTIAL_NAME.test(name);
}

/** The request headers without credentials; repeated headers are joined with ', '. */
export function webhookHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isCredentialHeader(name)) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
