import { useEffect, useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, useAction, useLoad } from './components.js';
import type { ProvidersData } from './model.js';
import type { UnsavedChanges } from './unsaved-changes.js';

/** An AI pipeline step's own configuration: the provider, model and system prompt every flow of the pipeline uses. */
export interface AiStepConfig {
  provider?: string;
  model?: string;
  system_prompt?: string;
}

export function AiStepForm({
  pipelineId,
  stepId,
  position,
  config,
  onSaved,
}: {
  pipelineId: number;
  stepId: string;
  position: number;
  config: AiStepConfig;
  onSaved: () => void;
}) {
  const providers = useLoad(() => call<{ data: ProvidersData }>('GET', '/providers'), []);
  const [provider, setProvider] = useState(config.provider ?? '');
  const [model, setModel] = useState(config.model ?? '');
  const [prompt, setPrompt] = useState(config.system_prompt ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const list = providers.data?.data;
  const models = list && provider ? (list.providers[provider]?.models ?? []) : [];
  const id = `ai-${position}`;
  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      // Empty fields are left out: the step then follows the default provider and model.
      const body: Record<string, unknown> = { step_type: 'ai', pipeline_id: pipelineId, system_prompt: prompt };
      if (provider) body.provider = provider;
      if (model) body.model = model;
      await call('PUT', `/pipelines/steps/${encodeURIComponent(stepId)}/config`, { body });
      setSaved(true);
      onSaved();
    });
  };
  return (
    <form class="settings ai-step" onSubmit={save} aria-label={`AI step ${position} configuration`}>
      <div class="field">
        <label for={`${id}-provider`}>Provider</label>
        <select
          id={`${id}-provider`}
          name="provider"
          value={provider}
          onChange={(e) => {
            setProvider((e.target as HTMLSelectElement).value);
            setModel('');
          }}
        >
          <option value="">The default{list ? ` (${list.defaults.provider || 'none set'})` : ''}</option>
          {Object.entries(list?.providers ?? {}).map(([slug, p]) => (
            <option key={slug} value={slug}>
              {p.label}
              {p.configured ? '' : ' (no key yet)'}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-model`}>Model</label>
        {models.length ? (
          <select id={`${id}-model`} name="model" value={model} onChange={(e) => setModel((e.target as HTMLSelectElement).value)}>
            <option value="">The provider's default</option>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={`${id}-model`}
            name="model"
            value={model}
            placeholder={provider ? 'model name' : 'the default model'}
            onInput={(e) => setModel((e.target as HTMLInputElement).value)}
          />
        )}
      </div>
      <div class="field">
        <label for={`${id}-prompt`}>System prompt</label>
        <textarea
          id={`${id}-prompt`}
          name="system_prompt"
          rows={4}
          maxLength={20000}
          value={prompt}
          onInput={(e) => setPrompt((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <ErrorNote error={action.error ?? providers.error} />
      {saved ? (
        <p class="ok" role="status">
          AI settings saved.
        </p>
      ) : null}
      <button type="submit" disabled={action.busy}>
        Save AI settings
      </button>
    </form>
  );
}

/**
 * A flow's own message to the AI step (what to do with each item), over the pipeline's
 * system prompt; saved with the flow page's other changes (unsaved-changes.ts).
 */
export function UserMessageForm({
  flowStepId,
  position,
  value,
  changes,
  onSubmit,
}: {
  flowStepId: string;
  position: number;
  value: string;
  changes: UnsavedChanges;
  onSubmit: () => void;
}) {
  const [text, setText] = useState(value);
  const [touched, setTouched] = useState(false);
  const id = `step-${position}-user-message`;
  const key = `${flowStepId}:user_message`;
  const { track } = changes;
  useEffect(() => {
    const save = async () => {
      await call('PATCH', `/flows/steps/${encodeURIComponent(flowStepId)}/config`, { body: { user_message: text } });
      setTouched(false);
    };
    track(key, touched ? { label: `Step ${position} (ai)`, save } : null);
  }, [key, touched, text, position]);
  useEffect(() => () => track(key, null), [key]);
  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form class="settings" onSubmit={submit}>
      <div class="field">
        <label for={id}>Message to the AI</label>
        <textarea
          id={id}
          name="user_message"
          rows={3}
          maxLength={20000}
          value={text}
          placeholder="e.g. Summarise this item in two sentences."
          onInput={(e) => {
            setText((e.target as HTMLTextAreaElement).value);
            setTouched(true);
          }}
        />
        <small>The provider, model and system prompt are the pipeline's (set on the pipeline's page).</small>
      </div>
    </form>
  );
}
