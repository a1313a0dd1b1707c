/**
 * A tool's configuration in its plugin's store: one document, secrets (API keys, the
 * service-account key file) sealed with the vault under a context naming tool and field,
 * so a sealed value cannot be replayed as another. Never answered in clear: secrets are
 * masked, the key file is shown by its client_email alone.
 */
import { maskSecret, type Collection, type Vault } from '../index.js';
import type { ToolCatalogueEntry } from './catalogue.js';
import { parseServiceAccount } from './service-account.js';
import { analyticsError } from './errors.js';

const DOC_ID = 'config';
const MASK_PREFIX = '••••';

export interface ConfigDoc extends Record<string, unknown> {
  _id: string;
}

export type ConfigValues = Readonly<Record<string, string>>;

export class ToolConfig {
  constructor(
    private readonly entry: ToolCatalogueEntry,
    private readonly collection: Collection<ConfigDoc>,
    private readonly vault: Vault,
  ) {}

  private context(field: string): string {
    return `analytics-${this.entry.id}:${field}`;
  }

  /** Every field's value in clear ('' when unset). */
  async values(): Promise<ConfigValues> {
    const doc = (await this.collection.findOne({ _id: DOC_ID })) ?? { _id: DOC_ID };
    const out: Record<string, string> = {};
    for (const [field, spec] of Object.entries(this.entry.config)) {
      const stored = doc[field];
      if (typeof stored !== 'string' || stored === '') out[field] = '';
      else if (!spec.secret) out[field] = stored;
      else out[field] = this.open(stored, field);
    }
    return out;
  }

  /**
   * A sealed value in clear; one that no longer opens (the vault key was replaced) counts
   * as unset, so the tool answers "not configured" (422) instead of failing every call.
   */
  private open(sealed: string, field: string): string {
    try {
      return this.vault.decrypt(sealed, this.context(field));
    } catch {
      return '';
    }
  }

  /** What GET shows: plain fields as they are, secrets masked, the key file by its account. */
  async view(): Promise<Record<string, string>> {
    const values = await this.values();
    const out: Record<string, string> = {};
    for (const [field, spec] of Object.entries(this.entry.config)) {
      const value = values[field] ?? '';
      if (!spec.secret || value === '') out[field] = value;
      else if (field === 'service_account')
        out[field] = `${(JSON.parse(value) as { client_email: string }).client_email} (private key ${MASK_PREFIX}••••)`;
      else out[field] = maskSecret(value);
    }
    return out;
  }

  /**
   * Saves the fields given: '' removes one, a masked value (what GET answered) keeps it.
   * Everything is checked before anything is written, so a bad field leaves the rest as it was.
   */
  async save(patch: Record<string, string>): Promise<void> {
    const $set: Record<string, string> = {};
    const $unset: Record<string, ''> = {};
    for (const [field, raw] of Object.entries(patch)) {
      const spec = this.entry.config[field];
      if (!spec) continue;
      const value = raw.trim();
      if (value === '') {
        $unset[field] = '';
        continue;
      }
      if (spec.secret && value.startsWith(MASK_PREFIX)) continue;
      if (field === 'service_account') {
        try {
          const key = await parseServiceAccount(value);
          $set[field] = this.vault.encrypt(JSON.stringify(key), this.context(field));
        } catch (error) {
          throw analyticsError('analytics_config_invalid', { message: (error as Error).message, data: { field } });
        }
        continue;
      }
      if (field === 'property_id' && !/^[0-9]{1,20}$/.test(value))
        throw analyticsError('analytics_config_invalid', { message: 'property_id must be the numeric GA4 property id', data: { field } });
      if (field === 'site_url' && !/^(https?:\/\/[^\s]+|sc-domain:[^\s/]+)$/.test(value))
        throw analyticsError('analytics_config_invalid', {
          message: 'site_url must be an http(s) URL or sc-domain:<domain>',
          data: { field },
        });
      $set[field] = spec.secret ? this.vault.encrypt(value, this.context(field)) : value;
    }
    const update: Record<string, unknown> = {};
    if (Object.keys($set).length) update.$set = $set;
    if (Object.keys($unset).length) update.$unset = $unset;
    if (Object.keys(update).length) await this.collection.updateOne({ _id: DOC_ID }, update, { upsert: true });
  }
}
