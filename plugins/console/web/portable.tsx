import { useRef } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, useAction } from './components.js';
import { navigate } from './router.js';

/** Saves a flow's export document (GET /flows/{id}/export) as a file the browser downloads. */
export function ExportButton({ flowId, name }: { flowId: number; name: string }) {
  const action = useAction();
  const save = () =>
    void action.run(async () => {
      const res = await call<{ data: unknown }>('GET', `/flows/${flowId}/export`);
      const blob = new Blob([`${JSON.stringify(res.data, null, 2)}\n`], { type: 'application/json' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'flow'}.flowhost.json`;
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(link.href);
    });
  return (
    <>
      <button type="button" disabled={action.busy} onClick={save}>
        Export
      </button>
      <ErrorNote error={action.error} />
    </>
  );
}

/** Imports an export document from a file as a new pipeline with its flows (POST /flows/import). */
export function ImportForm() {
  const input = useRef<HTMLInputElement>(null);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return;
    void action.run(async () => {
      let document: unknown;
      try {
        document = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not JSON: choose a file that “Export” or \`flowhost export\` wrote.`);
      }
      const res = await call<{ data: { pipeline_id: number; flow_ids: number[] } }>('POST', '/flows/import', { body: document });
      const first = res.data.flow_ids[0];
      navigate(first ? `/flows/${first}` : `/pipelines/${res.data.pipeline_id}`);
    });
  };
  return (
    <form class="inline card" onSubmit={submit} aria-label="Import a flow">
      <label>
        Import from a file
        <input ref={input} name="document" type="file" accept="application/json,.json" required />
      </label>
      <button type="submit" disabled={action.busy}>
        Import
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}
