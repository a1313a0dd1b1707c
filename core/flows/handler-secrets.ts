/**
 * Secrets in handler settings (an application password, an API key a handler takes in
 * its settings) are sealed with the vault before a flow or an ephemeral job is stored,
 * masked in every response, and opened only for the run. Which fields are secret is
 * decided by name, as everywhere else (core/security/mask.ts). Credentials written into
 * a URL (`https://user:password@host/feed`) are one too: the userinfo alone is sealed and
 * masked, so the address stays readable (`https://••••••••@host/feed`), and so is the value
 * of a secret query parameter (`https://host/feed.xml?token=••••••••&page=2`; which names
 * are secret: core/security/secret-parameters.ts).
 */
import { isSecretKey, maskDeep } from '../security/mask.js';
import type { HostVault, Vault } from '../security/vault.js';
import { urlCredentials, withUserinfo } from '../security/url-credentials.js';
import { originOf, rewriteSecretParameters, secretParameters } from '../security/url-query-secrets.js';
import { apiError } from '../errors/catalogue.js';

/** Binds sealed settings to this use: a value sealed elsewhere does not open here. */
const CONTEXT = 'handler-settings';
const MASK_PREFIX = '••••••••';

type Settings = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Settings =>
  !!value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

function walk(value: Settings, visit: (key: string, item: unknown) => unknown): Settings {
  const out: Settings = {};
  for (const [key, item] of Object.entries(value)) out[key] = isPlainObject(item) ? walk(item, visit) : visit(key, item);
  return out;
}

/** What a fingerprint is signed for: a key of its own, derived from the host's. */
const FINGERPRINT_CONTEXT = 'revision-secret-fingerprint';

export class HandlerSecrets {
  /** `vault`: the host's (with `sign`) fingerprints secrets for revisions; a plain one does not. */
  constructor(private readonly vault: Vault | HostVault) {}

  /**
   * For each stored value the mask hides (a secret field, a URL's userinfo or secret query
   * parameter), an HMAC of its opened value under a key derived from the host's key, by
   * JSON pointer below `settings`: two revisions tell whether a secret changed without
   * either holding it (sealing twice gives two ciphertexts, so those cannot be compared).
   * 12 bytes: no one without the host's key can test a guess against it.
   */
  fingerprints(settings: Settings): Record<string, string> {
    const out: Record<string, string> = {};
    if (!('sign' in this.vault)) return out;
    const vault = this.vault;
    const masked = HandlerSecrets.mask(settings);
    const opened = this.open(settings);
    const visit = (raw: Settings, hidden: Settings, plain: Settings, pointer: string) => {
      for (const [key, value] of Object.entries(raw)) {
        const path = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (isPlainObject(value)) visit(value, hidden[key] as Settings, plain[key] as Settings, path);
        else if (typeof value === 'string' && value !== hidden[key])
          out[path] = vault.sign(String(plain[key]), FINGERPRINT_CONTEXT).subarray(0, 12).toString('base64url');
      }
    };
    visit(settings, masked, opened, '');
    return out;
  }

  /**
   * A copy in which every non-empty secret-named string, every URL's userinfo and every
   * secret query parameter's value is sealed (sealed ones stay).
   */
  seal(settings: Settings): Settings {
    const sealOne = (value: string): string => (this.vault.isSealed(value) ? value : this.vault.encrypt(value, CONTEXT));
    return walk(settings, (key, item) => {
      if (typeof item !== 'string' || item === '' || this.vault.isSealed(item)) return item;
      if (isSecretKey(key)) return this.vault.encrypt(item, CONTEXT);
      const url = urlCredentials(item);
      const next = url ? withUserinfo(url, sealOne(url.userinfo)) : item;
      return rewriteSecretParameters(next, sealOne) ?? next;
    });
  }

  /** A copy with every sealed value opened: what the handler runs with. */
  open(settings: Settings): Settings {
    const openOne = (value: string): string => (this.vault.isSealed(value) ? this.vault.decrypt(value, CONTEXT) : value);
    return walk(settings, (_key, item) => {
      if (typeof item !== 'string') return item;
      if (this.vault.isSealed(item)) return this.vault.decrypt(item, CONTEXT);
      const url = urlCredentials(item);
      const next = url ? withUserinfo(url, openOne(url.userinfo)) : item;
      return rewriteSecretParameters(next, openOne) ?? next;
    });
  }

  /**
   * A client that read a flow and sends its settings back sends the masks it was shown:
   * those keep the stored secret instead of becoming the new value.
   */
  keepMasked(given: Settings, stored: Settings): Settings {
    const out: Settings = {};
    for (const [key, item] of Object.entries(given)) {
      if (isSecretKey(key) && typeof item === 'string' && item.startsWith(MASK_PREFIX) && key in stored) out[key] = stored[key];
      else if (typeof item === 'string' && (maskedUserinfo(item, stored[key]) || hasMaskedParameter(item))) {
        const url = maskedUserinfo(item, stored[key]) ?? item;
        out[key] = hasMaskedParameter(url) ? keptParameters(key, url, stored[key]) : url;
      } else if (isPlainObject(item) && isPlainObject(stored[key])) out[key] = this.keepMasked(item, stored[key] as Settings);
      else out[key] = item;
    }
    return out;
  }

  /**
   * What responses show: a stored secret as the bare mask (it is sealed, so a hint of its
   * last characters would be ciphertext), anything else secret-looking masked as usual.
   */
  static mask(settings: Settings): Settings {
    return maskDeep(
      walk(settings, (key, item) => {
        if (typeof item !== 'string' || item === '') return item;
        if (isSecretKey(key)) return MASK_PREFIX;
        const url = urlCredentials(item);
        const next = url ? withUserinfo(url, MASK_PREFIX) : item;
        return rewriteSecretParameters(next, () => MASK_PREFIX) ?? next;
      }),
    );
  }
}

/** Setting names that take the user part of a login, offered beside the secret fields. */
const USER_FIELDS = new Set(['username', 'user', 'login', 'user_name', 'account']);

/**
 * Refuses settings with credentials written into a URL (`https://user:password@host/feed`):
 * fetch never sends them (the WHATWG fetch standard refuses such a URL), and they would be
 * stored, shown and exported as an address. The 400 names each field and where credentials
 * do go: the handler's own fields, else its account connection, else (a handler with
 * neither, such as rss) a token in the query, which is sealed like a secret field.
 * `schema`: the handler's settings schema; `hasAccount`: whether it connects an account.
 */
export function refuseUrlCredentials(slug: string, settings: Settings, schema: unknown, hasAccount: boolean): void {
  const params: Record<string, string> = {};
  const visit = (value: Settings, path: string): void => {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (isPlainObject(item)) visit(item, field);
      else if (typeof item === 'string' && !isSecretKey(key) && urlCredentials(item)) params[field] = '';
    }
  };
  visit(settings, '');
  const fields = Object.keys(params);
  if (fields.length === 0) return;
  const props = isPlainObject(schema) && isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  const credentialFields = props.filter((key) => isSecretKey(key) || USER_FIELDS.has(key));
  const where = credentialFields.length
    ? `put them in the handler's own fields (${credentialFields.join(', ')})`
    : hasAccount
      ? `connect the handler's account instead (PUT /auth/${slug}, or \`flowhost auth ${slug}\`)`
      : `'${slug}' takes no credentials of its own: if the service accepts a token in the query (?token=…, ?key=…), give it there (it is sealed and masked like a secret field)`;
  for (const field of fields) params[field] = `${field} carries credentials (user:password@): ${where}, and give the address without them`;
  throw apiError('rest_invalid_param', {
    message: `Invalid settings for handler '${slug}': ${Object.values(params).join('; ')}`,
    data: { params },
  });
}

/**
 * A URL sent back with the masked userinfo it was shown (its path perhaps changed): the
 * stored credentials with the given address; null when `given` carries no mask.
 */
function maskedUserinfo(given: string, stored: unknown): string | null {
  if (typeof stored !== 'string') return null;
  const url = urlCredentials(given);
  const kept = urlCredentials(stored);
  return url && kept && url.userinfo === MASK_PREFIX ? withUserinfo(url, kept.userinfo) : null;
}

/** The mask as shown, or as a client that built the URL with `URL` percent-encoded it. */
function isMask(value: string): boolean {
  if (value === MASK_PREFIX) return true;
  try {
    return decodeURIComponent(value) === MASK_PREFIX;
  } catch {
    return false;
  }
}

const hasMaskedParameter = (value: string): boolean => secretParameters(value).some((p) => isMask(p.value));

/**
 * A URL sent back with the masked query values it was shown: each mask becomes the stored
 * value of the same parameter (its nth occurrence), whatever else of the address changed,
 * except its host: a token is not sent to another host unless someone types it there.
 * 400 naming the field when the address moved or a masked parameter was never stored.
 */
function keptParameters(key: string, given: string, stored: unknown): string {
  const storedUrl = typeof stored === 'string' ? stored : '';
  const refuse = (reason: string): never => {
    throw apiError('rest_invalid_param', { message: `Invalid settings: ${key}: ${reason}`, data: { params: { [key]: reason } } });
  };
  const kept = secretParameters(storedUrl);
  return (
    rewriteSecretParameters(given, (value, name, occurrence) => {
      if (!isMask(value)) return value;
      const shown = `the value of ${name} was shown masked`;
      if (originOf(given) !== originOf(storedUrl))
        return refuse(`${shown} for another address: give its value for ${originOf(given) || 'this one'}`);
      const match = kept.filter((p) => p.name === name)[occurrence];
      return match ? match.value : refuse(`${shown} but none is stored: give its value`);
    }) ?? given
  );
}
