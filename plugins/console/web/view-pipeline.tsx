import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Page, Status, useAction, useLoad } from './components.js';
import { AiStepForm, type AiStepConfig } from './ai-step-form.js';
import { STEP_TYPES, type Flow, type Pipeline, type PipelineStep } from './model.js';
import { href, navigate } from './router.js';

type Full = { data: { pipeline: Pipeline; flows: Flow[] } };

export function PipelineView({ id }: { id: number }) {
  const view = useLoad(() => call<Full>('GET', '/pipelines', { query: { pipeline_id: id, output_mode: 'full' } }), [id]);
  const action = useAction();
  const [stepType, setStepType] = useState('fetch');
  const [flowName, setFlowName] = useState('');
  const [name, setName] = useState<string>();
  if (!view.data) return <Page title="Pipeline">{view.error ? <ErrorNote error={view.error} /> : <Loading />}</Page>;
  const pipeline = view.data.data.pipeline;
  const flows = view.data.data.flows ?? [];
  const steps = [...(pipeline.pipeline_steps ?? [])].sort((a, b) => a.execution_order - b.execution_order);
  const doThen = (work: () => Promise<unknown>) =>
    action.run(async () => {
      await work();
      await view.reload();
    });
  const addStep = (event: Event) => {
    event.preventDefault();
    const label = `${STEP_TYPES.find((t) => t.type === stepType)?.label ?? stepType} Step`;
    void doThen(() => call('POST', `/pipelines/${id}/steps`, { body: { step_type: stepType, execution_order: steps.length, label } }));
  };
  const move = (step: PipelineStep, by: number) => {
    const order = steps.map((s) => s.pipeline_step_id);
    const from = order.indexOf(step.pipeline_step_id);
    const to = from + by;
    if (to < 0 || to >= order.length) return;
    order.splice(to, 0, ...order.splice(from, 1));
    void doThen(() =>
      call('PUT', `/pipelines/${id}/steps/reorder`, {
        body: { step_order: order.map((pipeline_step_id, execution_order) => ({ pipeline_step_id, execution_order })) },
      }),
    );
  };
  const rename = (event: Event) => {
    event.preventDefault();
    if (name === undefined) return;
    void doThen(async () => {
      await call('PATCH', `/pipelines/${id}`, { body: { pipeline_name: name } });
      setName(undefined);
    });
  };
  const createFlow = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const res = await call<{ data: { flow_id: number } }>('POST', '/flows', { body: { pipeline_id: id, flow_name: flowName } });
      navigate(`/flows/${res.data.flow_id}`);
    });
  };
  return (
    <Page
      title={`Pipeline: ${pipeline.pipeline_name}`}
      actions={
        <ConfirmButton
          label="Delete pipeline"
          confirmLabel={`Delete “${pipeline.pipeline_name}” and its ${flows.length} flow(s)?`}
          busy={action.busy}
          onConfirm={() =>
            void action.run(async () => {
              await call('DELETE', `/pipelines/${id}`);
              navigate('/pipelines');
            })
          }
        />
      }
    >
      <ErrorNote error={action.error} />
      <form class="inline card" onSubmit={rename} aria-label="Rename pipeline">
        <label>
          Name
          <input
            name="pipeline_name"
            required
            maxLength={200}
            value={name ?? pipeline.pipeline_name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={action.busy || name === undefined || name === pipeline.pipeline_name}>
          Rename
        </button>
      </form>

      <h2>Steps</h2>
      {steps.length === 0 ? <p class="empty">No steps yet. A typical pipeline fetches, optionally asks an AI, then publishes.</p> : null}
      <ol class="steps">
        {steps.map((step, index) => (
          <li key={step.pipeline_step_id} class="card step">
            <span class="step-name">
              {index + 1}. {step.label ?? step.step_type} <span class="muted">({step.step_type})</span>
            </span>
            <span class="actions">
              <button
                type="button"
                aria-label={`Move step ${index + 1} up`}
                disabled={action.busy || index === 0}
                onClick={() => move(step, -1)}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move step ${index + 1} down`}
                disabled={action.busy || index === steps.length - 1}
                onClick={() => move(step, 1)}
              >
                ↓
              </button>
              <ConfirmButton
                label="Remove"
                confirmLabel={`Remove step ${index + 1} from every flow of this pipeline?`}
                busy={action.busy}
                onConfirm={() => void doThen(() => call('DELETE', `/pipelines/${id}/steps/${encodeURIComponent(step.pipeline_step_id)}`))}
              />
            </span>
            {step.step_type === 'ai' ? (
              <AiStepForm
                pipelineId={id}
                stepId={step.pipeline_step_id}
                position={index + 1}
                config={(pipeline.pipeline_config?.[step.pipeline_step_id] ?? {}) as AiStepConfig}
                onSaved={() => void view.reload()}
              />
            ) : null}
          </li>
        ))}
      </ol>
      <form class="inline card" onSubmit={addStep} aria-label="Add a step">
        <label>
          Step type
          <select name="step_type" value={stepType} onChange={(e) => setStepType((e.target as HTMLSelectElement).value)}>
            {STEP_TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={action.busy}>
          Add step
        </button>
      </form>

      <h2>Flows</h2>
      {flows.length === 0 ? (
        <p class="empty">No flows run this pipeline yet.</p>
      ) : (
        <ul class="plain">
          {flows.map((f) => (
            <li key={f.flow_id}>
              <a href={href(`/flows/${f.flow_id}`)}>{f.flow_name}</a> <Status value={f.last_run_status} />
            </li>
          ))}
        </ul>
      )}
      <form class="inline card" onSubmit={createFlow} aria-label="New flow">
        <label>
          Flow name
          <input
            name="flow_name"
            required
            maxLength={200}
            value={flowName}
            placeholder="e.g. Company blog"
            onInput={(e) => setFlowName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button
          type="submit"
          class="primary"
          disabled={action.busy || steps.length === 0}
          title={steps.length === 0 ? 'Add a step first' : undefined}
        >
          Create flow
        </button>
      </form>
    </Page>
  );
}
