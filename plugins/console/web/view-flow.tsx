import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Page, Status, useAction, useLoad } from './components.js';
import { when } from './format.js';
import type { Flow, FlowStep, HandlerField, HandlerSummary, Interval } from './model.js';
import { href, navigate, setLeaveGuard } from './router.js';
import { UserMessageForm } from './ai-step-form.js';
import { ExportButton } from './portable.js';
import { SettingsForm } from './settings-form.js';
import { WebhookPanel } from './webhook-panel.js';
import { FlowAlerts } from './alerts-section.js';
import { FlowHistory } from './flow-history.js';
import { type PendingChange, type UnsavedChanges, useUnsavedChanges } from './unsaved-changes.js';

/** One flow: its steps' handlers and settings, its schedule, Run now, and its latest runs (live). */
export function FlowView({ id }: { id: number }) {
  const flow = useLoad(() => call<{ data: Flow }>('GET', `/flows/${id}`), [id], 2000);
  const intervals = useLoad(() => call<{ data: Interval[] }>('GET', '/settings/scheduling-intervals'), []);
  const action = useAction();
  const [message, setMessage] = useState('');
  const changes = useUnsavedChanges();
  const saving = useAction();
  const [saved, setSaved] = useState(false);
  // A restore changes what the forms were opened with: they open again from the restored flow.
  const [restores, setRestores] = useState(0);
  if (!flow.data) return <Page title="Flow">{flow.error ? <ErrorNote error={flow.error} /> : <Loading />}</Page>;
  const f = flow.data.data;
  const steps = Object.values(f.flow_config ?? {}).sort((a, b) => a.execution_order - b.execution_order);
  const act = (work: () => Promise<unknown>, done?: string) =>
    action.run(async () => {
      await work();
      setMessage(done ?? '');
      await flow.reload();
    });
  // One save for the whole page: each pending edit in turn; the first refusal stops it,
  // named by what it was for, and what is left stays pending.
  const saveAll = () =>
    void saving.run(async () => {
      setSaved(false);
      for (const [, change] of changes.pending) {
        try {
          await change.save();
        } catch (error) {
          if (!(error instanceof ApiFailure)) throw error;
          throw new ApiFailure(`${change.label}: ${error.message}`, error.code, error.status, error.data);
        } finally {
          await flow.reload();
        }
      }
      setSaved(true);
    });
  return (
    <Page
      title={`Flow: ${f.flow_name}`}
      actions={
        <>
          <button
            type="button"
            class="primary"
            disabled={action.busy || f.is_running}
            onClick={() => void act(() => call('POST', '/execute', { body: { flow_id: id } }), 'Run started.')}
          >
            Run now
          </button>
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                const res = await call<{ data: { flow_id: number } }>('POST', `/flows/${id}/duplicate`);
                navigate(`/flows/${res.data.flow_id}`);
              })
            }
          >
            Duplicate
          </button>
          <ExportButton flowId={id} name={f.flow_name} />
          <ConfirmButton
            label="Delete flow"
            confirmLabel={`Delete “${f.flow_name}”?`}
            busy={action.busy}
            onConfirm={() =>
              void action.run(async () => {
                await call('DELETE', `/flows/${id}`);
                // Nothing left to save: the flow is gone.
                setLeaveGuard(null);
                navigate('/flows');
              })
            }
          />
        </>
      }
    >
      <p class="muted">
        Runs the pipeline <a href={href(`/pipelines/${f.pipeline_id}`)}>#{f.pipeline_id}</a>.{' '}
        {f.is_running ? (
          <Status value="processing" />
        ) : (
          <>
            Last run: <Status value={f.last_run_status} /> {when(f.last_run)}
          </>
        )}
      </p>
      <ErrorNote error={action.error} />
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      {/* Keyed by flow: an edit of one flow's schedule must not be saved to the next (Duplicate opens it in this view). */}
      <Schedule key={`${id}-${restores}`} flow={f} intervals={intervals.data?.data ?? []} changes={changes} onSubmit={saveAll} />
      <h2>Steps</h2>
      {steps.length === 0 ? <p class="empty">The pipeline has no steps yet.</p> : null}
      {steps.map((step, index) => (
        <StepEditor
          key={`${step.flow_step_id}-${restores}`}
          step={step}
          position={index + 1}
          count={steps.length}
          changes={changes}
          onSubmit={saveAll}
        />
      ))}
      <SaveBar changes={changes} busy={saving.busy} error={saving.error} saved={saved} onSave={saveAll} />
      <h2>Latest runs</h2>
      {(f.recent_jobs ?? []).length === 0 ? (
        <p class="empty">No runs yet.</p>
      ) : (
        <ul class="plain runs">
          {(f.recent_jobs ?? []).map((job) => (
            <li key={job.job_id}>
              <a href={href(`/jobs/${job.job_id}`)}>Job {job.job_id}</a> <Status value={job.status} /> {when(job.created_at)}
              {job.error ? <span class="error-text"> {job.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <p>
        <a href={href('/jobs', { flow_id: id })}>All runs of this flow</a> · <a href={href('/logs', { flow_id: id })}>Its logs</a>
      </p>
      {/* Keyed by flow: a token shown for one flow must not stay on screen for the next. */}
      <WebhookPanel key={id} flowId={id} />
      <FlowAlerts key={id} flowId={id} changes={changes} />
      <FlowHistory
        key={id}
        flowId={id}
        version={f.revision ?? 0}
        onRestored={async () => {
          await flow.reload();
          setRestores((n) => n + 1);
        }}
      />
    </Page>
  );
}

/** The page's one save: what is unsaved, by name, and the button that saves all of it. */
function SaveBar({
  changes,
  busy,
  error,
  saved,
  onSave,
}: {
  changes: UnsavedChanges;
  busy: boolean;
  error: ApiFailure | undefined;
  saved: boolean;
  onSave: () => void;
}) {
  const labels = changes.pending.map(([, change]) => change.label);
  return (
    <section class="card save-bar" aria-label="Save changes">
      <ErrorNote error={error} />
      <p role="status">{labels.length ? `Unsaved changes: ${labels.join(', ')}.` : saved ? 'All changes saved.' : 'No unsaved changes.'}</p>
      <button type="button" class="primary" disabled={busy || labels.length === 0} onClick={onSave}>
        Save changes
      </button>
    </section>
  );
}

/** Reports an editor's pending edit to the page while it has one, and withdraws it when the editor goes. */
function useTracked(changes: UnsavedChanges, key: string, change: PendingChange | null, deps: unknown[]): void {
  const { track } = changes;
  useEffect(() => track(key, change), [key, ...deps]);
  useEffect(() => () => track(key, null), [key]);
}

function Schedule({
  flow,
  intervals,
  changes,
  onSubmit,
}: {
  flow: Flow;
  intervals: Interval[];
  changes: UnsavedChanges;
  onSubmit: () => void;
}) {
  const [interval, setInterval] = useState(flow.scheduling_config.interval);
  const [at, setAt] = useState('');
  const [touched, setTouched] = useState(false);
  const save = async () => {
    let config: { interval: string; timestamp?: number } = { interval };
    if (interval === 'one_time') {
      const time = new Date(at).getTime();
      if (Number.isNaN(time)) throw new ApiFailure('choose the date and time of the one-time run.', 'missing_timestamp', 0);
      config = { interval, timestamp: Math.floor(time / 1000) };
    }
    await call('PATCH', `/flows/${flow.flow_id}`, { body: { scheduling_config: config } });
    setTouched(false);
  };
  useTracked(changes, 'schedule', touched ? { label: 'Schedule', save } : null, [touched, interval, at]);
  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form class="inline card" onSubmit={submit} aria-label="Scheduling">
      <label>
        Schedule
        <select
          name="interval"
          value={interval}
          onChange={(e) => {
            setInterval((e.target as HTMLSelectElement).value);
            setTouched(true);
          }}
        >
          {(intervals.length
            ? intervals
            : [{ value: flow.scheduling_config.interval, label: flow.scheduling_config.interval, seconds: null }]
          ).map((i) => (
            <option key={i.value} value={i.value}>
              {i.label}
            </option>
          ))}
        </select>
      </label>
      {interval === 'one_time' ? (
        <label>
          Run at
          <input
            type="datetime-local"
            name="timestamp"
            required
            value={at}
            onInput={(e) => {
              setAt((e.target as HTMLInputElement).value);
              setTouched(true);
            }}
          />
        </label>
      ) : null}
      <span class="muted">{flow.next_run_display ? `Next: ${flow.next_run_display}` : ''}</span>
    </form>
  );
}

function StepEditor({
  step,
  position,
  count,
  changes,
  onSubmit,
}: {
  step: FlowStep;
  position: number;
  count: number;
  changes: UnsavedChanges;
  onSubmit: () => void;
}) {
  const handlers = useLoad(
    () =>
      step.step_type === 'ai'
        ? Promise.resolve({ data: {} as Record<string, HandlerSummary> })
        : call<{ data: Record<string, HandlerSummary> }>('GET', '/handlers', { query: { step_type: step.step_type } }),
    [step.step_type],
  );
  const [slug, setSlug] = useState(step.handler_slug ?? '');
  // The settings as the form would send them (reported when it opens and on every edit),
  // and whether the user changed the handler or a setting since the last save.
  const [settings, setSettings] = useState<Record<string, unknown>>({});
  const [touched, setTouched] = useState(false);
  const fields = useLoad(
    () =>
      slug
        ? call<{ data: { settings: Record<string, HandlerField> } }>('GET', `/handlers/${encodeURIComponent(slug)}`)
        : Promise.resolve(undefined),
    [slug],
  );
  const save = async () => {
    await call('PUT', `/flows/steps/${encodeURIComponent(step.flow_step_id)}/handler`, {
      body: { handler_slug: slug, step_type: step.step_type, settings },
    });
    setTouched(false);
  };
  const label = `Step ${position} (${step.step_type})`;
  useTracked(changes, step.flow_step_id, touched && slug ? { label, save } : null, [touched, slug, settings, label]);
  const idPrefix = `step-${position}`;
  return (
    <section class="card step-editor" aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`}>
        Step {position}/{count}: {step.step_type}
      </h3>
      {step.missing_settings?.length ? (
        // Outside the heading: the step's region keeps its name. A run stops here until these are saved.
        <p class="needs-configuration">
          <span class="badge warn">needs configuration: {step.missing_settings.join(', ')}</span>
        </p>
      ) : null}
      {step.step_type === 'ai' ? (
        <UserMessageForm
          flowStepId={step.flow_step_id}
          position={position}
          value={step.user_message ?? ''}
          changes={changes}
          onSubmit={onSubmit}
        />
      ) : (
        <>
          <label>
            Handler
            <select
              name="handler_slug"
              value={slug}
              onChange={(e) => {
                setSlug((e.target as HTMLSelectElement).value);
                setSettings({});
                setTouched(true);
              }}
            >
              <option value="">Choose a handler…</option>
              {Object.entries(handlers.data?.data ?? {}).map(([key, h]) => (
                <option key={key} value={key}>
                  {h.label}
                </option>
              ))}
            </select>
          </label>
          <ErrorNote error={handlers.error ?? fields.error} />
          {slug && fields.data ? (
            <SettingsForm
              key={slug}
              idPrefix={idPrefix}
              fields={fields.data.data.settings}
              values={slug === step.handler_slug ? step.handler_config : {}}
              onChange={(values, edited) => {
                setSettings(values);
                if (edited) setTouched(true);
              }}
              onSubmit={onSubmit}
            />
          ) : null}
        </>
      )}
    </section>
  );
}
