import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, useAction, useLoad } from './components.js';
import { AlertsForm, type FlowChoice } from './alerts-form.js';
import type { AlertSettings } from './alerts-model.js';
import { href } from './router.js';
import { useHasRoute } from './surfaces.js';
import type { UnsavedChanges } from './unsaved-changes.js';

/** The flows an on-failure flow is chosen from (the first 100, as the flows page shows them). */
function useFlowChoices() {
  return useLoad(() => call<{ data: { flows: FlowChoice[] } }>('GET', '/flows', { query: { per_page: 100 } }), []);
}

/**
 * The site-wide alerts on the Settings page: drawn only when the alerts plugin is loaded
 * (its routes are in the API index), so a host without it shows nothing here.
 */
export function SiteAlerts() {
  const loaded = useHasRoute('/alerts');
  if (!loaded) return null;
  return (
    <section class="card alerts" aria-labelledby="site-alerts-title">
      <h2 id="site-alerts-title">Alerts</h2>
      <p class="muted">
        When a flow fails: an e-mail, a webhook POST, or a run of another flow. Each flow may change these on its own page.
      </p>
      <SiteAlertsForm />
      <TestAlert />
    </section>
  );
}

function SiteAlertsForm() {
  const site = useLoad(() => call<{ data: AlertSettings }>('GET', '/alerts'), []);
  const flows = useFlowChoices();
  if (!site.data || !flows.data) return site.error || flows.error ? <ErrorNote error={site.error ?? flows.error} /> : <Loading />;
  return (
    <AlertsForm
      scope="site"
      stored={site.data.data}
      site={site.data.data}
      flows={flows.data.data.flows}
      save={async (patch) => (await call<{ data: AlertSettings }>('PUT', '/alerts', { body: patch })).data}
    />
  );
}

/**
 * A flow's own alerts on its page, over the site's; only when the alerts plugin is loaded.
 * An unsaved edit is one of the page's changes (`changes`): Save changes saves it too.
 */
export function FlowAlerts({ flowId, changes }: { flowId: number; changes: UnsavedChanges }) {
  const loaded = useHasRoute('/flows/(?P<flow_id>[\\d]+)/alerts');
  if (!loaded) return null;
  return (
    <section class="card alerts" aria-labelledby="flow-alerts-title">
      <h2 id="flow-alerts-title">Alerts</h2>
      <p class="muted">
        What this flow's failures set off. A field left to the site's follows the site's alerts (<a href={href('/settings')}>Settings</a>).
      </p>
      <FlowAlertsForm flowId={flowId} changes={changes} />
      <TestAlert flowId={flowId} />
    </section>
  );
}

type FlowAnswer = { data: { flow: AlertSettings; effective: AlertSettings } };

function FlowAlertsForm({ flowId, changes }: { flowId: number; changes: UnsavedChanges }) {
  const own = useLoad(() => call<FlowAnswer>('GET', `/flows/${flowId}/alerts`), [flowId]);
  const site = useLoad(() => call<{ data: AlertSettings }>('GET', '/alerts'), []);
  const flows = useFlowChoices();
  const error = own.error ?? site.error ?? flows.error;
  if (!own.data || !site.data || !flows.data) return error ? <ErrorNote error={error} /> : <Loading />;
  return (
    <AlertsForm
      scope="flow"
      stored={own.data.data.flow}
      site={site.data.data}
      flows={flows.data.data.flows}
      save={async (patch) => (await call<FlowAnswer>('PUT', `/flows/${flowId}/alerts`, { body: patch })).data.flow}
      onPending={(change) => changes.track('alerts', change)}
    />
  );
}

type TestResult = { channel: string; ok: boolean; error?: string };

/** POST /alerts/test: a test alert on each channel the saved settings turn on, and how each went. */
function TestAlert({ flowId }: { flowId?: number }) {
  const action = useAction();
  const [results, setResults] = useState<TestResult[] | null>(null);
  const send = () =>
    void action.run(async () => {
      setResults(null);
      const res = await call<{ data: { channels: TestResult[] } }>('POST', '/alerts/test', { body: flowId ? { flow_id: flowId } : {} });
      setResults(res.data.channels);
    });
  return (
    <div class="test-alert">
      <button type="button" disabled={action.busy} onClick={send}>
        Send a test alert
      </button>{' '}
      <span class="muted">with the saved settings (not an on-failure run).</span>
      <ErrorNote error={action.error} />
      {results ? (
        <ul class="plain" role="status" aria-label="Test alert">
          {results.length === 0 ? <li>No channel is set up: nothing was sent.</li> : null}
          {results.map((r) => (
            <li key={r.channel} class={r.ok ? 'ok' : 'error-text'}>
              {r.channel}: {r.ok ? 'sent' : `not sent: ${r.error ?? 'no reason given'}`}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
