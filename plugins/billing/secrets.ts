/**
 * The plugin's secrets: sealed with the vault in its own store (PUT /settings), else an
 * environment variable, else the config file. Never answered or logged in clear: views
 * carry them masked.
 */
import { maskSecret, type Collection, type Vault } from '../../sdk/index.js';
import type { BillingSettings } from './settings.js';

export const SECRET_NAMES = ['internal_key', 'provisioner_token', 'stripe_webhook_secret', 'stripe_api_key', 'smtp_password'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** The environment variable a deployment may set instead of saving the secret. */
export const ENV_NAMES: Record<SecretName, string> = {
  internal_key: 'FLOWHOST_BILLING_INTERNAL_KEY',
  provisioner_token: 'FLOWHOST_BILLING_PROVISIONER_TOKEN',
  stripe_webhook_secret: 'FLOWHOST_BILLING_STRIPE_WEBHOOK_SECRET',
  stripe_api_key: 'FLOWHOST_BILLING_STRIPE_API_KEY',
  smtp_password: 'FLOWHOST_BILLING_SMTP_PASSWORD',
};

const DOC_ID = 'secrets';
const MASK_PREFIX = '••••';
// Binds each sealed value to its name: one cannot be swapped in for another.
const context = (name: SecretName) => `billing:${name}`;

export type SecretsDoc = { _id: string } & Partial<Record<SecretName, string>>;

export class Secrets {
  constructor(
    private readonly collection: Collection<SecretsDoc>,
    private readonly vault: Vault,
    private readonly config: BillingSettings,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  /** The value in use ('' when none is configured anywhere). Read per request, so a rotation applies at once. */
  async get(name: SecretName): Promise<string> {
    const sealed = (await this.collection.findOne({ _id: DOC_ID }))?.[name];
    if (typeof sealed === 'string' && sealed) return this.vault.decrypt(sealed, context(name));
    const fromEnv = this.env[ENV_NAMES[name]];
    if (fromEnv) return fromEnv;
    return this.config[name];
  }

  /** Where each secret comes from and its masked value, for GET /settings. */
  async view(): Promise<Record<SecretName, { configured: boolean; source: 'saved' | 'env' | 'config' | 'none'; value: string }>> {
    const doc = await this.collection.findOne({ _id: DOC_ID });
    const out = {} as Record<SecretName, { configured: boolean; source: 'saved' | 'env' | 'config' | 'none'; value: string }>;
    for (const name of SECRET_NAMES) {
      const sealed = doc?.[name];
      const source =
        typeof sealed === 'string' && sealed ? 'saved' : this.env[ENV_NAMES[name]] ? 'env' : this.config[name] ? 'config' : 'none';
      const value = source === 'none' ? '' : await this.get(name);
      out[name] = { configured: source !== 'none', source, value: maskSecret(value) };
    }
    return out;
  }

  /** '' removes the saved value; the masked value (what GET answered) keeps it. */
  async save(values: Partial<Record<SecretName, string>>): Promise<void> {
    const set: Record<string, string> = {};
    const unset: Record<string, string> = {};
    for (const name of SECRET_NAMES) {
      const value = values[name];
      if (value === undefined || value.startsWith(MASK_PREFIX)) continue;
      if (value.trim() === '') unset[name] = '';
      else set[name] = this.vault.encrypt(value.trim(), context(name));
    }
    const update = { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) };
    if (Object.keys(update).length) await this.collection.updateOne({ _id: DOC_ID }, update, { upsert: true });
  }
}
