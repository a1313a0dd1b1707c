import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Page, useAction, useLoad } from './components.js';
import { useHasRoute } from './surfaces.js';

type Running = { id: string; version: string; description?: string; contributions: Record<string, string[]> };
export type Installed = {
  id: string;
  package: string;
  version: string;
  spec: string;
  enabled: boolean;
  loaded: boolean;
  installed_at: string;
};
type InstalledList = { data: Installed[]; restart_needed: boolean };
type PurgePlan = {
  collections: { name: string; documents: number }[];
  jobs: { name: string; count: number }[];
  settings: boolean;
  migrations: boolean;
};

/** What a purge removes, in words: "collections hello_greetings (3 documents); its saved settings". */
export function purgeWords(plan: PurgePlan): string {
  const parts = [
    ...plan.collections.map((c) => `collection ${c.name} (${c.documents} document${c.documents === 1 ? '' : 's'})`),
    ...plan.jobs.map((j) => `scheduled job ${j.name} (${j.count})`),
    ...(plan.settings ? ['its saved settings'] : []),
    ...(plan.migrations ? ['its migration record'] : []),
  ];
  return parts.length ? parts.join('; ') : 'nothing: it has no data in the store';
}

/**
 * Plugins, for administrators: what this host runs (GET /plugins), and, where the host
 * serves plugin installation (/installed-plugins), the installed plugins with enable/disable, update and
 * remove, an install form (a package name or an uploaded tarball) and a banner while a
 * change waits for a restart: a host loads plugins when it starts, never in the middle of runs.
 */
export function Plugins() {
  const running = useLoad(() => call<{ data: Running[] }>('GET', '/plugins'), []);
  const installs = useHasRoute('/installed-plugins');
  return (
    <Page title="Plugins">
      {installs ? <InstalledSection onChanged={running.reload} /> : null}
      <section class="card" aria-labelledby="running-title">
        <h2 id="running-title">Running on this host</h2>
        {running.data ? <RunningTable plugins={running.data.data} /> : running.error ? <ErrorNote error={running.error} /> : <Loading />}
      </section>
    </Page>
  );
}

function RunningTable({ plugins }: { plugins: Running[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Plugin</th>
          <th scope="col">Version</th>
          <th scope="col">Contributes</th>
        </tr>
      </thead>
      <tbody>
        {plugins.map((p) => (
          <tr key={p.id}>
            <td>
              {p.id}
              {p.description ? <div class="muted">{p.description}</div> : null}
            </td>
            <td>{p.version}</td>
            <td>
              {Object.entries(p.contributions)
                .map(([list, keys]) => `${list}: ${keys.join(', ')}`)
                .join('; ') || '-'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function InstalledSection({ onChanged }: { onChanged: () => Promise<void> }) {
  const list = useLoad(() => call<InstalledList>('GET', '/installed-plugins'), []);
  const changed = async () => {
    await list.reload();
    await onChanged();
  };
  return (
    <section class="card" aria-labelledby="installed-title">
      <h2 id="installed-title">Installed plugins</h2>
      {list.data?.restart_needed ? (
        <p class="once" role="status">
          Installed plugins changed since this host started: restart it (flowhost serve, or your service manager) to run the change.
        </p>
      ) : null}
      {list.data ? (
        <InstalledTable plugins={list.data.data} onChanged={changed} />
      ) : list.error ? (
        <ErrorNote error={list.error} />
      ) : (
        <Loading />
      )}
      <InstallForm onInstalled={changed} />
    </section>
  );
}

function InstalledTable({ plugins, onChanged }: { plugins: Installed[]; onChanged: () => Promise<void> }) {
  if (plugins.length === 0) return <p class="muted">No plugin installed yet: the build's own plugins are listed below.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Plugin</th>
          <th scope="col">Package</th>
          <th scope="col">Version</th>
          <th scope="col">State</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {plugins.map((p) => (
          <InstalledRow key={p.id} plugin={p} onChanged={onChanged} />
        ))}
      </tbody>
    </table>
  );
}

const stateOf = (p: Installed): string =>
  p.enabled ? (p.loaded ? 'enabled, running' : 'enabled, runs after a restart') : p.loaded ? 'disabled, stops after a restart' : 'disabled';

function InstalledRow({ plugin, onChanged }: { plugin: Installed; onChanged: () => Promise<void> }) {
  const action = useAction();
  const [purge, setPurge] = useState(false);
  const [plan, setPlan] = useState<PurgePlan | null>(null);
  const path = `/installed-plugins/${encodeURIComponent(plugin.id)}`;
  // Ticking "and its data" reads what a purge would remove, so the question names it.
  const choosePurge = (on: boolean) => {
    setPurge(on);
    setPlan(null);
    if (on) void action.run(async () => setPlan((await call<{ data: PurgePlan }>('GET', `${path}/purge`)).data));
  };
  const act = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      await onChanged();
    });
  return (
    <tr>
      <td>{plugin.id}</td>
      <td>{plugin.package}</td>
      <td>{plugin.version}</td>
      <td class="status">{stateOf(plugin)}</td>
      <td>
        <button type="button" disabled={action.busy} onClick={() => act(() => call('PATCH', path, { body: { enabled: !plugin.enabled } }))}>
          {plugin.enabled ? 'Disable' : 'Enable'}
        </button>{' '}
        <button type="button" disabled={action.busy} onClick={() => act(() => call('POST', `${path}/update`, { body: {} }))}>
          Update
        </button>{' '}
        <label>
          <input type="checkbox" checked={purge} onChange={(e) => choosePurge((e.target as HTMLInputElement).checked)} /> and its data
        </label>{' '}
        <ConfirmButton
          label="Remove"
          confirmLabel={
            purge ? `Remove ${plugin.id} and delete ${plan ? purgeWords(plan) : 'its data'}?` : `Remove ${plugin.id} (its data stays)?`
          }
          busy={action.busy}
          onConfirm={() => act(() => call('DELETE', path, { query: { purge } }))}
        />
        <ErrorNote error={action.error} />
      </td>
    </tr>
  );
}

function InstallForm({ onInstalled }: { onInstalled: () => Promise<void> }) {
  const action = useAction();
  const [spec, setSpec] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [done, setDone] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setDone('');
    void action.run(async () => {
      const res = file
        ? await call<{ data: Installed }>('POST', '/installed-plugins', { body: file, headers: { 'Content-Type': 'application/gzip' } })
        : await call<{ data: Installed }>('POST', '/installed-plugins', { body: { package: spec.trim() } });
      setDone(`Installed ${res.data.id} ${res.data.version}.`);
      setSpec('');
      setFile(null);
      form.reset();
      await onInstalled();
    });
  };
  return (
    <form class="card" aria-label="Install a plugin" onSubmit={submit}>
      <div class="field">
        <label for="plugin-package">Package</label>
        <input
          id="plugin-package"
          value={spec}
          placeholder="name, name@version or a git URL"
          disabled={file !== null}
          onInput={(e) => setSpec((e.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="plugin-tarball">Or upload a package tarball (.tgz, from npm pack)</label>
        <input
          id="plugin-tarball"
          type="file"
          accept=".tgz,application/gzip"
          onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
      </div>
      <button type="submit" class="primary" disabled={action.busy || (!file && !spec.trim())}>
        {action.busy ? 'Installing…' : 'Install'}
      </button>
      {done ? <p role="status">{done}</p> : null}
      <ErrorNote error={action.error} />
    </form>
  );
}
