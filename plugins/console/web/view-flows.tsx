import { call } from './api.js';
import { ErrorNote, Loading, Page, Status, useAction, useLoad } from './components.js';
import { when } from './format.js';
import type { Flow } from './model.js';
import { ImportForm } from './portable.js';
import { href } from './router.js';

/** A problem flow entry: its steps that lack settings, and what it names that no plugin provides, if any. */
interface Problem {
  flow_id: number;
  needs_configuration?: Array<{ handler_slug: string; missing_settings: string[] }>;
  orphaned?: Array<{ reason: string }>;
}

/** A flow that cannot run as configured says so; one failing or finding nothing repeatedly is a "problem". */
function ProblemBadge({ problem }: { problem: Problem | undefined }) {
  if (!problem) return null;
  // A plugin left out of the build: the reason is shown whole, it says what to load.
  if (problem.orphaned?.length)
    return (
      <span class="orphaned">
        <span class="badge warn">plugin missing</span> <span class="muted">{problem.orphaned.map((o) => o.reason).join('; ')}</span>
      </span>
    );
  const lacking = (problem.needs_configuration ?? []).flatMap((step) => step.missing_settings);
  return lacking.length ? (
    <span class="badge warn" title={`Not set yet: ${lacking.join(', ')}`}>
      needs configuration
    </span>
  ) : (
    <span class="badge warn" title="Failing or finding nothing repeatedly">
      problem
    </span>
  );
}

/** Every flow with its status, schedule and last run; problem flows flagged; refreshed live. */
export function Flows() {
  const list = useLoad(
    async () => {
      const [flows, problems] = await Promise.all([
        call<{ data: { flows: Flow[] }; total: number }>('GET', '/flows', { query: { per_page: 100, output_mode: 'full' } }),
        call<{ data: { problem_flows: Problem[] } }>('GET', '/flows/problems'),
      ]);
      return { flows: flows.data.flows, total: flows.total, problems: new Map(problems.data.problem_flows.map((p) => [p.flow_id, p])) };
    },
    [],
    3000,
  );
  const action = useAction();
  const runNow = (flow: Flow) =>
    action.run(async () => {
      await call('POST', '/execute', { body: { flow_id: flow.flow_id } });
      await list.reload();
    });
  return (
    <Page
      title="Flows"
      actions={
        <a class="button" href={href('/pipelines')}>
          New flow from a pipeline
        </a>
      }
    >
      <ErrorNote error={list.error ?? action.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : list.data.flows.length === 0 ? (
        <p class="empty">
          No flows yet. <a href={href('/pipelines')}>Create a pipeline</a>, then a flow that runs it.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Flow</th>
              <th scope="col">Schedule</th>
              <th scope="col">Last run</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.flows.map((f) => (
              <tr key={f.flow_id}>
                <td>
                  <a href={href(`/flows/${f.flow_id}`)}>{f.flow_name}</a>
                  <ProblemBadge problem={list.data!.problems.get(f.flow_id)} />
                </td>
                <td>{f.next_run_display ?? f.scheduling_config.interval}</td>
                <td>{when(f.last_run)}</td>
                <td>{f.is_running ? <Status value="processing" /> : <Status value={f.last_run_status} />}</td>
                <td>
                  <button
                    type="button"
                    disabled={action.busy || f.is_running}
                    onClick={() => void runNow(f)}
                    aria-label={`Run ${f.flow_name} now`}
                  >
                    Run now
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ImportForm />
      {list.data && list.data.total > list.data.flows.length ? (
        <p class="muted">
          Showing the first {list.data.flows.length} of {list.data.total} flows.
        </p>
      ) : null}
    </Page>
  );
}
