import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, Page, useAction, useLoad } from './components.js';
import type { SettingsData, SettingValue } from './model.js';
import { href } from './router.js';
import { SiteAlerts } from './alerts-section.js';
import { PluginSettings } from './plugin-settings-section.js';

/**
 * Words for the settings the console knows. A setting GET /settings answers that is not
 * here still gets a field (typed by its value, under "Other"): the API, not this list,
 * decides what the settings are.
 */
const KNOWN: Record<string, { label: string; group: string; hint?: string }> = {
  log_retention_days: { label: 'Keep log entries (days)', group: 'Runs and logs', hint: 'Older entries are deleted; 0 keeps them all.' },
  job_retention_days: {
    label: 'Keep runs (days)',
    group: 'Runs and logs',
    hint: 'Finished runs older than this go, with their steps and log lines; 0 keeps them all.',
  },
  forget_processed_items_after_days: {
    label: 'Forget processed items after (days)',
    group: 'Runs and logs',
    hint: 'Items processed longer ago than this may be fetched and published again; 0 never forgets.',
  },
  problem_flow_threshold: {
    label: 'Problem-flow threshold',
    group: 'Problem flows',
    hint: 'Consecutive failures or empty runs before a flow is flagged.',
  },
  flows_per_page: { label: 'Flows per page', group: 'Lists' },
  jobs_per_page: { label: 'Runs per page', group: 'Lists' },
  default_provider: {
    label: 'Default AI provider',
    group: 'AI defaults',
    hint: 'A provider slug; choose from the lists under AI providers.',
  },
  default_model: { label: 'Default model', group: 'AI defaults' },
  max_turns: { label: 'Max turns', group: 'AI defaults' },
};
const GROUPS = ['Runs and logs', 'Problem flows', 'Lists', 'AI defaults', 'Other'];

type Scalar = Exclude<SettingValue, null> | null;
const isScalar = (value: unknown): value is Scalar => value === null || ['string', 'number', 'boolean'].includes(typeof value);
const labelOf = (key: string) => KNOWN[key]?.label ?? key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The site settings as a form; each field is typed by the value the API answered. */
export function Settings() {
  const loaded = useLoad(() => call<{ data: SettingsData }>('GET', '/settings'), []);
  return (
    <Page title="Settings">
      <p class="muted">
        AI provider keys are set under <a href={href('/providers')}>AI providers</a>.
      </p>
      {loaded.data ? (
        <SettingsEditor key={JSON.stringify(loaded.data.data.settings)} data={loaded.data.data} />
      ) : loaded.error ? (
        <ErrorNote error={loaded.error} />
      ) : (
        <Loading />
      )}
      <SiteAlerts />
      <PluginSettings />
    </Page>
  );
}

function SettingsEditor({ data }: { data: SettingsData }) {
  // Only scalars: objects (the masked provider keys) have their own view.
  const [saved, setSaved] = useState(
    () => Object.fromEntries(Object.entries(data.settings).filter(([, v]) => isScalar(v))) as Record<string, Scalar>,
  );
  const [draft, setDraft] = useState<Record<string, string | boolean>>(() => draftOf(saved));
  const [message, setMessage] = useState('');
  const action = useAction();
  const keys = Object.keys(saved);

  const submit = (event: Event) => {
    event.preventDefault();
    setMessage('');
    const patch: Record<string, unknown> = {};
    for (const key of keys) {
      const value = draftValue(saved[key] ?? null, draft[key] ?? '');
      if (value !== saved[key]) patch[key] = value;
    }
    if (Object.keys(patch).length === 0) {
      setMessage('Nothing changed.');
      return;
    }
    void action.run(async () => {
      // PATCH is partial: only what the user changed is sent, so two editors do not undo each other.
      const res = await call<{ data: SettingsData }>('PATCH', '/settings', { body: patch });
      const next = Object.fromEntries(Object.entries(res.data.settings).filter(([, v]) => isScalar(v))) as Record<string, Scalar>;
      setSaved(next);
      setDraft(draftOf(next));
      setMessage('Settings saved.');
    });
  };

  // An error naming a field goes beside it; any other beside the button.
  const fieldError = action.error?.param && keys.includes(action.error.param) ? action.error.param : undefined;
  const groups = GROUPS.map((group) => ({ group, keys: keys.filter((k) => (KNOWN[k]?.group ?? 'Other') === group) })).filter(
    (g) => g.keys.length > 0,
  );
  return (
    // noValidate: the API is the one judge of a value, and its message is the one shown.
    <form class="settings" aria-label="Site settings" noValidate onSubmit={submit}>
      {groups.map(({ group, keys: inGroup }) => (
        <fieldset class="card" key={group}>
          <legend>{group}</legend>
          {inGroup.map((key) => (
            <Field
              key={key}
              name={key}
              value={draft[key] ?? ''}
              kind={typeof saved[key]}
              fallback={data.defaults[key]}
              error={fieldError === key ? action.error : undefined}
              onChange={(v) => setDraft({ ...draft, [key]: v })}
            />
          ))}
        </fieldset>
      ))}
      {fieldError ? null : <ErrorNote error={action.error} />}
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={action.busy}>
        Save settings
      </button>
    </form>
  );
}

function Field({
  name,
  value,
  kind,
  fallback,
  error,
  onChange,
}: {
  name: string;
  value: string | boolean;
  kind: string;
  fallback: SettingValue | undefined;
  error: ReturnType<typeof useAction>['error'];
  onChange: (value: string | boolean) => void;
}) {
  const id = `setting-${name}`;
  const hint = [
    KNOWN[name]?.hint,
    fallback === undefined ? '' : `Default: ${fallback === '' || fallback === null ? 'none' : String(fallback)}.`,
  ]
    .filter(Boolean)
    .join(' ');
  const described = [hint ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, name, 'aria-describedby': described, 'aria-invalid': error ? true : undefined };
  return (
    <div class={kind === 'boolean' ? 'field check' : 'field'}>
      {kind === 'boolean' ? (
        <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      ) : null}
      <label for={id}>{labelOf(name)}</label>
      {kind === 'number' ? (
        <input
          {...common}
          type="number"
          step={1}
          inputMode="numeric"
          value={String(value)}
          onInput={(e) => onChange((e.target as HTMLInputElement).value)}
        />
      ) : null}
      {kind !== 'number' && kind !== 'boolean' ? (
        <input {...common} type="text" value={String(value)} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
      ) : null}
      {hint ? <small id={`${id}-help`}>{hint}</small> : null}
      {error ? (
        <div id={`${id}-error`}>
          <ErrorNote error={error} />
        </div>
      ) : null}
    </div>
  );
}

function draftOf(values: Record<string, Scalar>): Record<string, string | boolean> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? v : v === null ? '' : String(v)]));
}

/**
 * The draft back in the type the API answered. A number field that is empty or not a number
 * is sent as written (null when empty) so the API's own message says what is wrong with it.
 */
function draftValue(saved: Scalar, draft: string | boolean): Scalar {
  if (typeof draft === 'boolean') return draft;
  if (typeof saved === 'number') {
    if (draft.trim() === '') return null;
    const n = Number(draft);
    return Number.isFinite(n) ? n : draft;
  }
  return draft;
}
