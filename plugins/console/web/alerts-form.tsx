import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ApiFailure } from './api.js';
import { ErrorNote, useAction } from './components.js';
import type { PendingChange } from './unsaved-changes.js';
import { type AlertSettings, type AlertsDraft, describe, draftOf, type Field, fieldOf, patchOf, type Scope } from './alerts-model.js';

export interface FlowChoice {
  flow_id: number;
  flow_name: string;
}

/**
 * The alert settings of the site or of one flow, with its own Save (the PUT sends only what
 * changed). On a flow each field may be left to the site's, whose value is named beside
 * it. The signing secret is never shown: a password field that keeps the stored secret
 * when left blank. An API refusal naming a field is shown at that field.
 */
export function AlertsForm({
  scope,
  stored,
  site,
  flows,
  save,
  onPending,
}: {
  scope: Scope;
  /** The site's settings, or a flow's own overrides, as last answered. */
  stored: AlertSettings;
  /** The site's settings (for a flow: what a field left empty means). */
  site: AlertSettings;
  flows: FlowChoice[];
  /** Sends the PUT; answers the settings as stored now. */
  save: (patch: Record<string, unknown>) => Promise<AlertSettings>;
  /** Told of the unsaved draft (or null when there is none), for a page that keeps its edits. */
  onPending?: (change: PendingChange | null) => void;
}) {
  const { saved, draft, set, submit, action, message } = useAlertsDraft(scope, stored, save, onPending);
  const id = (field: string) => `alerts-${scope}-${field}`;
  const errorField = fieldOf(action.error?.param);
  const flowName = (flowId: number) => flows.find((f) => f.flow_id === flowId)?.flow_name ?? `flow ${flowId}`;
  const siteSays = (field: Field) => (scope === 'flow' ? `Site's: ${describe(field, site, flowName)}` : '');
  const row = (field: Field, label: string, hint: string, control: (common: Common) => ComponentChildren) => (
    <Row
      id={id(field)}
      label={label}
      hint={[hint, siteSays(field)].filter(Boolean).join(' ')}
      error={errorField === field ? action.error : undefined}
    >
      {control}
    </Row>
  );
  const inherit = scope === 'flow' ? <option value="">Site's setting</option> : null;
  const secretSet = saved.webhook_secret_set === true;
  return (
    // noValidate: the API is the one judge of a value, and its message is the one shown.
    <form class="settings" noValidate onSubmit={submit} aria-label={scope === 'site' ? 'Site alerts' : "This flow's alerts"}>
      {row('enabled', 'Send alerts', '', (c) => (
        <select {...c} value={draft.enabled} onChange={(e) => set({ enabled: value(e) })}>
          {inherit}
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
      ))}
      {row('notify', 'When', 'A problem flow alerts once, and its recovery once.', (c) => (
        <select {...c} value={draft.notify} onChange={(e) => set({ notify: value(e) })}>
          {inherit}
          <option value="problem">When a flow becomes a problem flow</option>
          <option value="every_failure">On every failed run</option>
        </select>
      ))}
      {row('window_minutes', 'At most one alert per flow and channel in (minutes)', '0: no limit.', (c) => (
        <input
          {...c}
          type="number"
          step={1}
          min={0}
          inputMode="numeric"
          value={draft.window_minutes}
          onInput={(e) => set({ window_minutes: value(e) })}
        />
      ))}
      {row('email_to', 'E-mail to', "Addresses separated by commas; the SMTP server is the operator's (the plugin's config).", (c) => (
        <input {...c} type="text" autocomplete="off" value={draft.email_to} onInput={(e) => set({ email_to: value(e) })} />
      ))}
      {row('webhook_url', 'Webhook URL', 'Alerts are POSTed here.', (c) => (
        <input {...c} type="url" autocomplete="off" value={draft.webhook_url} onInput={(e) => set({ webhook_url: value(e) })} />
      ))}
      {row('webhook_format', 'Webhook body', '', (c) => (
        <select {...c} value={draft.webhook_format} onChange={(e) => set({ webhook_format: value(e) })}>
          {inherit}
          <option value="json">JSON (signed when a secret is set)</option>
          <option value="slack">Slack-compatible ({'{"text": …}'})</option>
        </select>
      ))}
      {row(
        'webhook_secret',
        'Webhook signing secret',
        secretSet ? 'A secret is set; leave blank to keep it.' : scope === 'flow' ? 'None of its own.' : 'None set.',
        (c) => (
          <input
            {...c}
            type="password"
            autocomplete="off"
            placeholder={secretSet ? 'leave blank to keep' : ''}
            value={draft.webhook_secret}
            onInput={(e) => set({ webhook_secret: value(e) })}
          />
        ),
      )}
      {secretSet ? (
        <div class="field check">
          <input
            id={id('forget-secret')}
            type="checkbox"
            checked={draft.forget_secret}
            onChange={(e) => set({ forget_secret: (e.target as HTMLInputElement).checked })}
          />
          <label for={id('forget-secret')}>{scope === 'site' ? 'Remove the secret' : "Remove this flow's secret (use the site's)"}</label>
        </div>
      ) : null}
      {row('on_failure_flow_id', 'On failure, run the flow', 'It is given the failed run as its initial_data.', (c) => (
        <select {...c} value={draft.on_failure_flow_id} onChange={(e) => set({ on_failure_flow_id: value(e) })}>
          <option value="">{scope === 'flow' ? "Site's setting" : 'None'}</option>
          {choices(flows, draft.on_failure_flow_id).map((f) => (
            <option key={f.flow_id} value={String(f.flow_id)}>
              {f.flow_name} (#{f.flow_id})
            </option>
          ))}
        </select>
      ))}
      {errorField ? null : <ErrorNote error={action.error} />}
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={action.busy}>
        Save alerts
      </button>
    </form>
  );
}

/**
 * The form's state: the settings as last saved, the draft, and the save of what changed.
 * While the draft differs from what is saved it is reported to `onPending` (the flow page's
 * unsaved changes: its Save changes saves it too, and leaving asks first).
 */
function useAlertsDraft(
  scope: Scope,
  stored: AlertSettings,
  save: (patch: Record<string, unknown>) => Promise<AlertSettings>,
  onPending?: (change: PendingChange | null) => void,
) {
  const [saved, setSaved] = useState(stored);
  const [draft, setDraft] = useState<AlertsDraft>(() => draftOf(stored));
  const [message, setMessage] = useState('');
  const action = useAction();
  const set = (changes: Partial<AlertsDraft>) => setDraft({ ...draft, ...changes });
  const patch = patchOf(scope, draftOf(saved), draft);
  const apply = async (changes: Record<string, unknown>) => {
    const next = await save(changes);
    setSaved(next);
    // The secret field empties: what was typed is not kept on the page.
    setDraft(draftOf(next));
    setMessage('Alert settings saved.');
  };
  const pending = Object.keys(patch).length > 0 ? JSON.stringify(patch) : '';
  useEffect(() => onPending?.(pending ? { label: 'Alerts', save: () => apply(patch) } : null), [pending]);
  useEffect(() => () => onPending?.(null), []);
  const submit = (event: Event) => {
    event.preventDefault();
    setMessage('');
    if (!pending) {
      setMessage('Nothing changed.');
      return;
    }
    void action.run(() => apply(patch));
  };
  return { saved, draft, set, submit, action, message };
}

type Common = { id: string; name: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean };

/** One labelled control with its hint and, when the API refused its value, the refusal. */
function Row({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint: string;
  error: ApiFailure | undefined;
  children: (common: Common) => ComponentChildren;
}) {
  const described = [hint ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, name: id.replace(/^alerts-\w+-/, ''), 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint ? <small id={`${id}-help`}>{hint}</small> : null}
      {error ? (
        <div id={`${id}-error`}>
          <ErrorNote error={error} />
        </div>
      ) : null}
    </div>
  );
}

const value = (event: Event) => (event.target as HTMLInputElement | HTMLSelectElement).value;

/** The flows to choose from; a stored choice not among them (past the first page) stays shown. */
function choices(flows: FlowChoice[], current: string): FlowChoice[] {
  if (!current || flows.some((f) => String(f.flow_id) === current)) return flows;
  return [...flows, { flow_id: Number(current), flow_name: `flow ${current}` }];
}
