/**
 * Secrets in handler settings (an application password, an API key a handler takes in
 * its settings) are sealed with the vault before a flow or an ephemeral job is stored,
 * masked in every response, and opened only for the run. Which fields are secret is
 * decided by name, as everywhere else (core/security/mask.ts).
 */
import { isSecretKey, maskDeep } from '../security/mask.js';
import type { Vault } from '../security/vault.js';

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

export class HandlerSecrets {
  constructor(private readonly vault: Vault) {}

  /** A copy in which every non-empty secret-named string is sealed (sealed ones stay). */
  seal(settings: Settings): Settings {
    return walk(settings, (key, item) =>
      isSecretKey(key) && typeof item === 'string' && item !== '' && !this.vault.isSealed(item) ? this.vault.encrypt(item, CONTEXT) : item,
    );
  }

  /** A copy with every sealed value opened: what the handler runs with. */
  open(settings: Settings): Settings {
    return walk(settings, (_key, item) =>
      typeof item === 'string' && this.vault.isSealed(item) ? this.vault.decrypt(item, CONTEXT) : item,
    );
  }

  /**
   * A client that read a flow and sends its settings back sends the masks it was shown:
   * those keep the stored secret instead of becoming the new value.
   */
  keepMasked(given: Settings, stored: Settings): Settings {
    const out: Settings = {};
    for (const [key, item] of Object.entries(given)) {
      if (isSecretKey(key) && typeof item === 'string' && item.startsWith(MASK_PREFIX) && key in stored) out[key] = stored[key];
      else if (isPlainObject(item) && isPlainObject(stored[key])) out[key] = this.keepMasked(item, stored[key] as Settings);
      else out[key] = item;
    }
    return out;
  }

  /**
   * What responses show: a stored secret as the bare mask (it is sealed, so a hint of its
   * last characters would be ciphertext), anything else secret-looking masked as usual.
   */
  static mask(settings: Settings): Settings {
    return maskDeep(walk(settings, (key, item) => (isSecretKey(key) && typeof item === 'string' && item !== '' ? MASK_PREFIX : item)));
  }
}
