/**
 * The alerts plugin's settings (GET/PUT /alerts, /flows/{id}/alerts) as the console's form
 * holds them: every field a string (or a flag) while it is edited, turned back into a
 * partial PUT of what changed. On a flow an empty field means "the site's" (null); on the
 * site, a cleared address or flow means none. No DOM here.
 */
export interface AlertSettings {
  enabled?: boolean;
  notify?: 'problem' | 'every_failure';
  window_minutes?: number;
  email_to?: string[];
  webhook_url?: string | null;
  webhook_format?: 'slack' | 'json';
  /** Answered masked ('••••••••'), never in clear; '' when none. */
  webhook_secret?: string;
  webhook_secret_set?: boolean;
  on_failure_flow_id?: number | null;
}

export type Scope = 'site' | 'flow';

export interface AlertsDraft {
  enabled: string;
  notify: string;
  window_minutes: string;
  email_to: string;
  webhook_url: string;
  webhook_format: string;
  on_failure_flow_id: string;
  /** A new secret; blank keeps the one stored. */
  webhook_secret: string;
  /** Remove the stored secret (the site's: none; a flow's own: the site's again). */
  forget_secret: boolean;
}

/** The fields a form edits, in the order the API names them in its errors. */
export const FIELDS = [
  'enabled',
  'notify',
  'window_minutes',
  'email_to',
  'webhook_url',
  'webhook_format',
  'webhook_secret',
  'on_failure_flow_id',
] as const;
export type Field = (typeof FIELDS)[number];

/** The field an API error names (`email_to.0` is the e-mail field), if it is one of the form's. */
export function fieldOf(param: string | undefined): Field | undefined {
  const head = param?.split('.')[0];
  return FIELDS.find((field) => field === head);
}

export function draftOf(settings: AlertSettings): AlertsDraft {
  return {
    enabled: settings.enabled === undefined ? '' : settings.enabled ? 'on' : 'off',
    notify: settings.notify ?? '',
    window_minutes: settings.window_minutes === undefined ? '' : String(settings.window_minutes),
    email_to: (settings.email_to ?? []).join(', '),
    webhook_url: settings.webhook_url ?? '',
    webhook_format: settings.webhook_format ?? '',
    on_failure_flow_id: settings.on_failure_flow_id ? String(settings.on_failure_flow_id) : '',
    webhook_secret: '',
    forget_secret: false,
  };
}

/**
 * What the PUT sends: only the fields that differ from the stored ones. A number field that
 * is not a number is sent as written, so the API's own message says what is wrong with it.
 */
export function patchOf(scope: Scope, stored: AlertsDraft, draft: AlertsDraft): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const empty = scope === 'flow' ? null : undefined;
  const changed = (key: keyof AlertsDraft) => draft[key] !== stored[key];
  if (changed('enabled')) patch.enabled = draft.enabled === '' ? null : draft.enabled === 'on';
  if (changed('notify')) patch.notify = draft.notify || null;
  if (changed('webhook_format')) patch.webhook_format = draft.webhook_format || null;
  if (changed('window_minutes')) patch.window_minutes = numberOrText(draft.window_minutes);
  if (changed('on_failure_flow_id')) patch.on_failure_flow_id = numberOrText(draft.on_failure_flow_id);
  if (changed('webhook_url')) patch.webhook_url = draft.webhook_url.trim() || null;
  if (changed('email_to')) {
    const addresses = draft.email_to.split(/[\s,;]+/).filter(Boolean);
    patch.email_to = addresses.length ? addresses : (empty ?? []);
  }
  if (draft.webhook_secret.trim()) patch.webhook_secret = draft.webhook_secret.trim();
  else if (draft.forget_secret) patch.webhook_secret = scope === 'flow' ? null : '';
  return patch;
}

function numberOrText(text: string): number | string | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** A setting in words, for "the site's: …" beside a flow's field. */
export function describe(field: Field, site: AlertSettings, flowName: (id: number) => string): string {
  switch (field) {
    case 'enabled':
      return site.enabled === false ? 'off' : 'on';
    case 'notify':
      return site.notify === 'every_failure' ? 'every failure' : 'when it becomes a problem flow';
    case 'window_minutes':
      return `${site.window_minutes ?? 60} minutes`;
    case 'email_to':
      return site.email_to?.length ? site.email_to.join(', ') : 'no e-mail';
    case 'webhook_url':
      return site.webhook_url ?? 'no webhook';
    case 'webhook_format':
      return site.webhook_format === 'slack' ? 'Slack' : 'JSON';
    case 'webhook_secret':
      return site.webhook_secret_set ? 'set' : 'none';
    case 'on_failure_flow_id':
      return site.on_failure_flow_id ? flowName(site.on_failure_flow_id) : 'none';
  }
}
