import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, Page, useAction, useLoad } from './components.js';
import type { Pipeline } from './model.js';
import { href, navigate } from './router.js';

export function Pipelines() {
  const list = useLoad(
    () => call<{ data: { pipelines: Pipeline[] }; total: number }>('GET', '/pipelines', { query: { per_page: 100, output_mode: 'list' } }),
    [],
  );
  const [name, setName] = useState('');
  const create = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await create.run(async () => {
      const res = await call<{ data: { pipeline_id: number } }>('POST', '/pipelines', { body: { pipeline_name: name } });
      navigate(`/pipelines/${res.data.pipeline_id}`);
    });
  };
  return (
    <Page title="Pipelines">
      <p class="lead">
        A pipeline is the shape of a workflow: its steps, in order. Flows run a pipeline with their own settings and schedule.
      </p>
      <form class="inline card" onSubmit={submit} aria-label="New pipeline">
        <label>
          Pipeline name
          <input
            name="pipeline_name"
            required
            maxLength={200}
            value={name}
            placeholder="e.g. Blog to social"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={create.busy}>
          Create pipeline
        </button>
        <ErrorNote error={create.error} />
      </form>
      <ErrorNote error={list.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : list.data.data.pipelines.length === 0 ? (
        <p class="empty">No pipelines yet: create the first one above.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Pipeline</th>
              <th scope="col">Steps</th>
              <th scope="col">Flows</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.pipelines.map((p) => (
              <tr key={p.pipeline_id}>
                <td>
                  <a href={href(`/pipelines/${p.pipeline_id}`)}>{p.pipeline_name}</a>
                </td>
                <td>{p.step_count ?? p.pipeline_steps?.length ?? '—'}</td>
                <td>{p.flow_count ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
