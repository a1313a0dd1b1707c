/**
 * How a credential field (a name from a handler's `auth_fields`) is shown: its label, and
 * whether it is a secret. The API masks every field in `config_status`; the form hides
 * only secrets as they are typed, so a client id or a handle stays checkable by eye.
 */

/** Name endings that mark a secret, as the host's masking reads them (core/security/mask.ts). */
const SECRET = /(password|passwd|passphrase|secret|token|key)$/;

export function isSecretField(name: string): boolean {
  return SECRET.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** Words written in capitals in a label. */
const ACRONYMS: Record<string, string> = { id: 'ID', api: 'API', url: 'URL' };

/** `client_id` → "Client ID", `api_secret` → "API secret". */
export function fieldLabel(name: string): string {
  const words = name
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((word) => ACRONYMS[word.toLowerCase()] ?? word.toLowerCase());
  const [first = name, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}
