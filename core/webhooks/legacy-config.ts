/**
 * Webhook settings written by the original plugin, kept under the flow's
 * `scheduling_config`, turned into the template form stored on the flow as `webhook`.
 * Pure: the service seals the values and writes the result (see service.ts `migrate`).
 *
 * Accepted shapes (docs/api.md "Legacy webhook settings"):
 * - the single-header shorthand:
 *   `webhook_auth_mode: 'hmac_sha1' | 'hmac_sha256' | 'hmac_sha512'`, `webhook_secret`,
 *   `webhook_signature_header` (default `X-Signature`), `webhook_signature_format`
 *   (`[prefix]hex|base64|base64url`, e.g. `sha256=hex`; default `hex`);
 * - bearer: `webhook_auth_mode: 'bearer'` (or absent) with `webhook_token`;
 * - the template form: `webhook_auth_mode: 'hmac'`, `webhook_auth` (template),
 *   `webhook_secrets` ([{id, value, expires_at}]);
 * - `webhook_enabled` (default true when a mode or token is present).
 */
import {
  DEFAULT_TEMPLATE_MAX_BODY_BYTES,
  checkTemplate,
  type HmacAlgo,
  type HmacTemplate,
  type SignatureEncoding,
} from './hmac-template.js';

/** Every key of the original plugin's webhook settings; all are removed by the migration. */
export const LEGACY_KEYS = [
  'webhook_enabled',
  'webhook_auth_mode',
  'webhook_token',
  'webhook_secret',
  'webhook_signature_header',
  'webhook_signature_format',
  'webhook_auth',
  'webhook_secrets',
] as const;

export interface LegacySecret {
  id: string | null;
  value: string;
  expires_at: Date | null;
}

/** What the legacy settings say, before sealing. `problem` is logged; the trigger then answers 401. */
export interface LegacyWebhook {
  enabled: boolean;
  mode: string;
  token: string | null;
  template: HmacTemplate | null;
  secrets: LegacySecret[];
  /** Why the settings could not be fully carried over (the flow then refuses every request). */
  problem: string | null;
  /** The shape found, for the migration's log line. */
  shape: 'bearer' | 'shorthand' | 'template';
}

export function hasLegacyWebhook(scheduling: Record<string, unknown> | undefined): boolean {
  return !!scheduling && LEGACY_KEYS.some((key) => scheduling[key] !== undefined);
}

const SHORTHAND = /^hmac_(sha1|sha256|sha512)$/;

/** `sha256=hex` → prefix `sha256=`, encoding hex; `base64` → no prefix. */
function parseFormat(format: string): { prefix: string; encoding: SignatureEncoding } | null {
  const match = /^(.*?)(hex|base64url|base64)$/i.exec(format.trim());
  if (!match) return null;
  return { prefix: match[1]!, encoding: match[2]!.toLowerCase() as SignatureEncoding };
}

function toDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date =
    value instanceof Date ? value : typeof value === 'number' ? new Date(value < 1e12 ? value * 1000 : value) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function readLegacyWebhook(scheduling: Record<string, unknown>): LegacyWebhook {
  const text = (key: string) => (typeof scheduling[key] === 'string' && scheduling[key] !== '' ? (scheduling[key] as string) : null);
  const mode = text('webhook_auth_mode') ?? (text('webhook_token') ? 'bearer' : text('webhook_secret') ? 'hmac_sha256' : 'bearer');
  const enabled =
    scheduling.webhook_enabled === undefined
      ? true
      : scheduling.webhook_enabled === true || scheduling.webhook_enabled === 1 || scheduling.webhook_enabled === '1';
  const base = { enabled, token: null, template: null, secrets: [] as LegacySecret[], problem: null as string | null };

  if (mode === 'bearer') {
    const token = text('webhook_token');
    return { ...base, mode: 'bearer', shape: 'bearer', token, problem: token ? null : 'the legacy bearer settings have no token' };
  }

  const shorthand = SHORTHAND.exec(mode);
  if (shorthand) {
    const algo = shorthand[1] as HmacAlgo;
    const header = text('webhook_signature_header') ?? 'X-Signature';
    const format = parseFormat(text('webhook_signature_format') ?? 'hex');
    const secret = text('webhook_secret');
    const secrets = secret ? [{ id: null, value: secret, expires_at: null }] : [];
    if (!format)
      return {
        ...base,
        mode: 'hmac',
        shape: 'shorthand',
        secrets,
        problem: `the legacy signature format '${text('webhook_signature_format')}' is not [prefix]hex|base64|base64url`,
      };
    const template: HmacTemplate = {
      mode: 'hmac',
      algo,
      signed_template: '{body}',
      signature_source: {
        header,
        extract: format.prefix ? { kind: 'prefix', key: format.prefix } : { kind: 'raw' },
        encoding: format.encoding,
      },
      max_body_bytes: DEFAULT_TEMPLATE_MAX_BODY_BYTES,
    };
    return {
      ...base,
      mode: 'hmac',
      shape: 'shorthand',
      template,
      secrets,
      problem: secret ? null : 'the legacy hmac settings have no secret',
    };
  }

  if (mode === 'hmac') {
    const raw = scheduling.webhook_auth;
    const template = raw && typeof raw === 'object' ? (structuredClone(raw) as Record<string, unknown>) : null;
    const problems = template ? checkTemplate(template) : ['no webhook_auth template'];
    const list = Array.isArray(scheduling.webhook_secrets) ? (scheduling.webhook_secrets as unknown[]) : [];
    const secrets = list.flatMap((entry): LegacySecret[] => {
      const e = entry as { id?: unknown; value?: unknown; expires_at?: unknown } | null;
      return e && typeof e.value === 'string' && e.value
        ? [{ id: typeof e.id === 'string' && e.id ? e.id : null, value: e.value, expires_at: toDate(e.expires_at) }]
        : [];
    });
    return {
      ...base,
      mode: 'hmac',
      shape: 'template',
      template: problems.length ? null : (template as unknown as HmacTemplate),
      secrets,
      problem: problems.length ? `the legacy template cannot be used: ${problems.join('; ')}` : null,
    };
  }

  // A mode some verifier plugin may provide: carry the secrets over, the service checks the mode.
  const secret = text('webhook_secret');
  return { ...base, mode, shape: 'shorthand', secrets: secret ? [{ id: null, value: secret, expires_at: null }] : [] };
}
