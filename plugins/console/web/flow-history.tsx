/**
 * A flow's History on its page (issue 55): its revisions, newest first (who, when, from
 * which client, what), the changes a revision made over the one before it (each changed
 * field with its old and new value, from the API's diff; text only, never HTML), and a
 * Restore button that asks first and records the restore as a new revision.
 */
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, useAction, useLoad } from './components.js';
import { when } from './format.js';

interface Revision {
  revision: number;
  action: string;
  change: string;
  user_login: string | null;
  client: string;
  created_at: string;
  restored_from: number | null;
}

interface Change {
  op: 'add' | 'remove' | 'replace' | 'move';
  path: string;
  before?: unknown;
  after?: unknown;
  /** A secret changed: no values come with it. */
  secret?: boolean;
  /** The step a /steps/… path is in. */
  step?: { pipeline_step_id: string; position: number; step_type: string };
}

/** A JSON pointer as words: `/steps/1_ab…_3/handler_config/feed_url` → `steps › 1_ab…_3 › handler_config › feed_url`. */
const pathWords = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join(' › ');

/** A step's change by its position and type (its id on hover), not the snapshot's key for it. */
const changeWords = (change: Change) =>
  change.step
    ? [`step ${change.step.position} (${change.step.step_type})`, pathWords(`/${change.path.split('/').slice(3).join('/')}`)]
        .filter(Boolean)
        .join(' › ')
    : pathWords(change.path);

const valueText = (value: unknown) => (value === undefined ? '(none)' : typeof value === 'string' ? `“${value}”` : JSON.stringify(value));

function ChangeList({ flowId, revision }: { flowId: number; revision: number }) {
  const diff = useLoad(
    () =>
      call<{ data: { changes: Change[] } }>('GET', `/flows/${flowId}/revisions/diff`, {
        query: { from: revision - 1, to: revision },
      }),
    [flowId, revision],
  );
  if (!diff.data) return diff.error ? <ErrorNote error={diff.error} /> : <Loading />;
  const changes = diff.data.data.changes;
  if (changes.length === 0) return <p class="muted">No change to the flow's settings.</p>;
  return (
    <ul class="plain changes" aria-label={`Changes in revision ${revision}`}>
      {changes.map((c) => (
        <li key={`${c.op}${c.path}`}>
          <code title={c.step ? `pipeline step ${c.step.pipeline_step_id}` : undefined}>{changeWords(c)}</code>:{' '}
          {c.secret ? (
            <>secret changed (value not shown)</>
          ) : c.op === 'add' ? (
            <>
              added <ins>{valueText(c.after)}</ins>
            </>
          ) : c.op === 'remove' ? (
            <>
              removed <del>{valueText(c.before)}</del>
            </>
          ) : (
            <>
              <del>{valueText(c.before)}</del> → <ins>{valueText(c.after)}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function RevisionItem({
  flowId,
  rev,
  latest,
  busy,
  onRestore,
}: {
  flowId: number;
  rev: Revision;
  latest: boolean;
  busy: boolean;
  onRestore: () => void;
}) {
  const [open, setOpen] = useState(false);
  const what = rev.restored_from ? `restore of revision ${rev.restored_from}` : `${rev.action} (${rev.change})`;
  return (
    <li aria-label={`Revision ${rev.revision}`}>
      <strong>Revision {rev.revision}</strong> · {what} · by {rev.user_login ?? 'the system'} · from {rev.client} ·{' '}
      <time dateTime={rev.created_at}>{when(rev.created_at)}</time>{' '}
      {rev.revision > 1 ? (
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide changes' : 'Show changes'}
        </button>
      ) : null}{' '}
      {latest ? (
        <span class="muted">(current)</span>
      ) : (
        <ConfirmButton
          label="Restore"
          confirmLabel={`Restore revision ${rev.revision}? This becomes a new revision; secrets keep their current values.`}
          busy={busy}
          onConfirm={onRestore}
        />
      )}
      {open ? <ChangeList flowId={flowId} revision={rev.revision} /> : null}
    </li>
  );
}

/** `version`: the flow's latest revision as the page read it; a change there reads the history again. */
export function FlowHistory({ flowId, version, onRestored }: { flowId: number; version: number; onRestored: () => Promise<void> }) {
  const list = useLoad(
    () => call<{ data: { revisions: Revision[]; total: number } }>('GET', `/flows/${flowId}/revisions`, { query: { per_page: 20 } }),
    [flowId, version],
  );
  const restore = useAction();
  const [message, setMessage] = useState('');
  const revisions = list.data?.data.revisions ?? [];
  return (
    <section class="card history" aria-labelledby="flow-history-title">
      <h2 id="flow-history-title">History</h2>
      <ErrorNote error={restore.error ?? list.error} />
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : revisions.length === 0 ? (
        <p class="empty">No revisions recorded yet: the next change to this flow is the first.</p>
      ) : (
        <ul class="plain revisions">
          {revisions.map((rev, index) => (
            <RevisionItem
              key={rev.revision}
              flowId={flowId}
              rev={rev}
              latest={index === 0}
              busy={restore.busy}
              onRestore={() =>
                void restore.run(async () => {
                  const res = await call<{ message: string }>('POST', `/flows/${flowId}/revisions/${rev.revision}/restore`);
                  setMessage(res.message);
                  await onRestored();
                  await list.reload();
                })
              }
            />
          ))}
        </ul>
      )}
      {list.data && list.data.data.total > revisions.length ? (
        <p class="muted">
          The latest {revisions.length} of {list.data.data.total}; older ones: <code>flowhost flows revisions {flowId} --offset 20</code>.
        </p>
      ) : null}
    </section>
  );
}
