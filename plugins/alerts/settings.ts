/**
 * Alert settings: one site-wide document and one per flow, in the plugin's own collection
 * (keyed `site` and `flow:<id>`), so the core's flow records stay the core's. A flow's
 * document holds only what it overrides; a field it leaves out (or sets to null) is the
 * site's. The webhook secret is sealed with the plugin's vault and answered masked.
 */
import { maskSecret, type Collection, type Vault } from '../../sdk/index.js';

export type NotifyMode = 'problem' | 'every_failure';
export type WebhookFormat = 'slack' | 'json';

/** What decides whether, where and how often a failed flow is announced. */
export interface AlertSettings {
  enabled: boolean;
  /** `problem`: once when the flow becomes a problem flow (and once on its recovery); `every_failure`: each failure. */
  notify: NotifyMode;
  /** At most one alert per flow and channel in this many minutes (0: no limit). */
  window_minutes: number;
  /** E-mail recipients (through the SDK mail service); empty: no e-mail. */
  email_to: string[];
  webhook_url: string | null;
  webhook_format: WebhookFormat;
  /** Sealed at rest; '' when none. */
  webhook_secret: string;
  /** A flow to run when this one fails, with the failure as its initial_data. */
  on_failure_flow_id: number | null;
}

export const SITE_DEFAULTS: AlertSettings = {
  enabled: true,
  notify: 'problem',
  window_minutes: 60,
  email_to: [],
  webhook_url: null,
  webhook_format: 'json',
  webhook_secret: '',
  on_failure_flow_id: null,
};

export const SETTING_KEYS = Object.keys(SITE_DEFAULTS) as Array<keyof AlertSettings>;

export type AlertSettingsDoc = { _id: string } & Partial<AlertSettings>;

/** What a PUT may carry: any setting; on a flow, null removes its override. */
export type SettingsPatch = { [K in keyof AlertSettings]?: AlertSettings[K] | null };

const MASK_PREFIX = '••••';
const SITE_ID = 'site';
const flowDocId = (flowId: number) => `flow:${flowId}`;
// Binds the sealed secret to the document it belongs to: one cannot be moved to another.
const secretContext = (docId: string) => `alerts:webhook_secret:${docId}`;

export class AlertSettingsStore {
  constructor(
    private readonly collection: Collection<AlertSettingsDoc>,
    private readonly vault: Vault,
  ) {}

  async site(): Promise<AlertSettings> {
    return { ...SITE_DEFAULTS, ...this.open(await this.collection.findOne({ _id: SITE_ID })) };
  }

  /** Only what the flow overrides (secret opened). */
  async flowOverrides(flowId: number): Promise<Partial<AlertSettings>> {
    return this.open(await this.collection.findOne({ _id: flowDocId(flowId) }));
  }

  /** The settings that apply to a flow: its overrides over the site's. */
  async effective(flowId: number): Promise<AlertSettings> {
    const [site, own] = await Promise.all([this.site(), this.flowOverrides(flowId)]);
    return { ...site, ...own };
  }

  saveSite(patch: SettingsPatch): Promise<void> {
    return this.save(SITE_ID, patch, false);
  }

  saveFlow(flowId: number, patch: SettingsPatch): Promise<void> {
    return this.save(flowDocId(flowId), patch, true);
  }

  /** '' clears the secret; the masked value (what GET answered) keeps it; null on a flow removes the override. */
  private async save(docId: string, patch: SettingsPatch, overrides: boolean): Promise<void> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, ''> = {};
    for (const key of SETTING_KEYS) {
      const value = patch[key];
      if (value === undefined) continue;
      if (value === null) {
        // On a flow: back to the site's. On the site: a nullable setting is set to null, any other back to its default.
        if (!overrides && SITE_DEFAULTS[key] === null) set[key] = null;
        else unset[key] = '';
        continue;
      }
      if (key === 'webhook_secret') {
        const secret = String(value).trim();
        if (secret.startsWith(MASK_PREFIX)) continue;
        if (secret) set[key] = this.vault.encrypt(secret, secretContext(docId));
        else set[key] = '';
        continue;
      }
      set[key] = value;
    }
    const update = { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) };
    if (Object.keys(update).length) await this.collection.updateOne({ _id: docId }, update, { upsert: true });
  }

  private open(doc: AlertSettingsDoc | null): Partial<AlertSettings> {
    if (!doc) return {};
    const { _id, ...rest } = doc;
    const out: Partial<AlertSettings> = {};
    for (const key of SETTING_KEYS) if (rest[key] !== undefined) Object.assign(out, { [key]: rest[key] });
    if (typeof out.webhook_secret === 'string' && out.webhook_secret)
      out.webhook_secret = this.vault.decrypt(out.webhook_secret, secretContext(_id));
    return out;
  }
}

/** Settings as answered: the secret masked, and whether one is set. */
export function settingsView(settings: Partial<AlertSettings>): Record<string, unknown> {
  const { webhook_secret, ...rest } = settings;
  if (webhook_secret === undefined) return rest;
  return { ...rest, webhook_secret: webhook_secret ? maskSecret(webhook_secret) : '', webhook_secret_set: Boolean(webhook_secret) };
}
