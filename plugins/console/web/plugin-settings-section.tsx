import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, useAction, useLoad } from './components.js';
import { useHasRoute } from './surfaces.js';

type Listed = { plugin: string; description: string | null; live: boolean; restart_required: boolean };
type Property = { type?: string; enum?: unknown[]; description?: string; title?: string; writeOnly?: boolean; default?: unknown };
type View = {
  plugin: string;
  schema: { properties?: Record<string, Property> } | null;
  values: Record<string, unknown>;
  secrets: Record<string, { set: boolean }>;
  live: boolean;
  restart_required: boolean;
};

/**
 * Each plugin's settings on the Settings page, as a form drawn from its settingsSchema:
 * only when the host serves GET /plugins/settings. A writeOnly setting is a password field
 * that starts empty (the API never returns it): left blank it keeps the saved secret.
 */
export function PluginSettings() {
  const loaded = useHasRoute('/plugins/settings');
  if (!loaded) return null;
  return (
    <section class="card" aria-labelledby="plugin-settings-title">
      <h2 id="plugin-settings-title">Plugins</h2>
      <p class="muted">Each plugin's own settings, from its schema. Secret ones are never shown once saved.</p>
      <PluginChooser />
    </section>
  );
}

function PluginChooser() {
  const listed = useLoad(() => call<{ data: Listed[]; restart_required: boolean }>('GET', '/plugins/settings'), []);
  const [chosen, setChosen] = useState('');
  if (!listed.data) return listed.error ? <ErrorNote error={listed.error} /> : <Loading />;
  const plugins = listed.data.data;
  if (plugins.length === 0) return <p class="muted">No plugin of this build declares settings.</p>;
  return (
    <div>
      {listed.data.restart_required ? (
        <p class="once" role="status">
          Saved plugin settings wait for a restart:{' '}
          {plugins
            .filter((p) => p.restart_required)
            .map((p) => p.plugin)
            .join(', ')}
          .
        </p>
      ) : null}
      <div class="field">
        <label for="plugin-settings-choice">Plugin</label>
        <select id="plugin-settings-choice" value={chosen} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
          <option value="">Choose a plugin</option>
          {plugins.map((p) => (
            <option key={p.plugin} value={p.plugin}>
              {p.plugin}
              {p.description ? ` (${p.description})` : ''}
            </option>
          ))}
        </select>
      </div>
      {chosen ? <PluginForm key={chosen} plugin={chosen} /> : null}
    </div>
  );
}

function PluginForm({ plugin }: { plugin: string }) {
  const loaded = useLoad(() => call<{ data: View }>('GET', `/plugins/${encodeURIComponent(plugin)}/settings`), [plugin]);
  if (!loaded.data) return loaded.error ? <ErrorNote error={loaded.error} /> : <Loading />;
  return <SchemaForm initial={loaded.data.data} />;
}

const draftOf = (view: View): Record<string, string | boolean> =>
  Object.fromEntries(
    Object.entries(view.schema?.properties ?? {}).map(([key, p]) => {
      if (p.writeOnly) return [key, ''];
      const value = view.values[key];
      return [key, p.type === 'boolean' ? value === true : value === undefined || value === null ? '' : String(value)];
    }),
  );

/** The draft in the schema's type; a number that does not parse is sent as written, for the API's message. */
function typedValue(p: Property, draft: string | boolean): unknown {
  if (typeof draft === 'boolean') return draft;
  if (p.type === 'integer' || p.type === 'number') {
    if (draft.trim() === '') return null;
    const n = Number(draft);
    return Number.isFinite(n) ? n : draft;
  }
  return draft;
}

function SchemaForm({ initial }: { initial: View }) {
  const [view, setView] = useState(initial);
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [removed, setRemoved] = useState<Record<string, boolean>>({});
  const [message, setMessage] = useState('');
  const action = useAction();
  const properties = Object.entries(view.schema?.properties ?? {});
  const submit = (event: Event) => {
    event.preventDefault();
    setMessage('');
    const start = draftOf(view);
    const patch: Record<string, unknown> = {};
    for (const [key, p] of properties) {
      if (p.writeOnly) {
        if (removed[key]) patch[key] = null;
        else if (draft[key] !== '') patch[key] = draft[key];
      } else if (draft[key] !== start[key]) patch[key] = typedValue(p, draft[key] ?? '');
    }
    if (Object.keys(patch).length === 0) {
      setMessage('Nothing changed.');
      return;
    }
    void action.run(async () => {
      const res = await call<{ data: View; message: string }>('PATCH', `/plugins/${encodeURIComponent(view.plugin)}/settings`, {
        body: patch,
      });
      setView(res.data);
      setDraft(draftOf(res.data));
      setRemoved({});
      setMessage(res.message);
    });
  };
  const fieldError = action.error?.param;
  return (
    <form class="settings" aria-label={`Settings of ${view.plugin}`} noValidate onSubmit={submit}>
      {properties.map(([key, p]) => {
        const id = `plugin-setting-${key}`;
        const error = fieldError === key ? action.error : undefined;
        const set = (value: string | boolean) => setDraft({ ...draft, [key]: value });
        const common = { id, name: key, 'aria-invalid': error ? true : undefined, 'aria-describedby': `${id}-help` };
        const hint = p.writeOnly
          ? view.secrets[key]?.set
            ? 'Saved (hidden). Leave blank to keep it.'
            : 'Not set.'
          : (p.description ?? (p.default === undefined ? '' : `Default: ${String(p.default)}.`));
        return (
          <div class={p.type === 'boolean' ? 'field check' : 'field'} key={key}>
            {p.type === 'boolean' ? (
              <input
                {...common}
                type="checkbox"
                checked={draft[key] === true}
                onChange={(e) => set((e.target as HTMLInputElement).checked)}
              />
            ) : null}
            <label for={id}>{p.title ?? key}</label>
            {p.enum ? (
              <select {...common} value={String(draft[key])} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
                {p.enum.map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : p.type === 'boolean' ? null : p.writeOnly ? (
              <input
                {...common}
                type="password"
                autoComplete="new-password"
                value={String(draft[key] ?? '')}
                onInput={(e) => set((e.target as HTMLInputElement).value)}
              />
            ) : p.type === 'integer' || p.type === 'number' ? (
              <input
                {...common}
                type="number"
                value={String(draft[key] ?? '')}
                onInput={(e) => set((e.target as HTMLInputElement).value)}
              />
            ) : (
              <input {...common} type="text" value={String(draft[key] ?? '')} onInput={(e) => set((e.target as HTMLInputElement).value)} />
            )}
            <small id={`${id}-help`}>{hint}</small>
            {p.writeOnly && view.secrets[key]?.set ? (
              <div class="field check">
                <input
                  id={`${id}-remove`}
                  type="checkbox"
                  checked={removed[key] === true}
                  onChange={(e) => setRemoved({ ...removed, [key]: (e.target as HTMLInputElement).checked })}
                />
                <label for={`${id}-remove`}>Remove the saved {p.title ?? key}</label>
              </div>
            ) : null}
            {error ? <ErrorNote error={error} /> : null}
          </div>
        );
      })}
      {fieldError && properties.some(([key]) => key === fieldError) ? null : <ErrorNote error={action.error} />}
      {message ? (
        <p class={view.restart_required ? 'once' : 'ok'} role="status">
          {message}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={action.busy}>
        Save plugin settings
      </button>
    </form>
  );
}
