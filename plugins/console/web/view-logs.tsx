import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, Page, useLoad } from './components.js';
import { when } from './format.js';
import type { LogEntry } from './model.js';
import { href, navigate, type Route } from './router.js';

const LEVELS = ['debug', 'info', 'warning', 'error', 'critical'];
const FILTERS = ['level', 'search', 'job_id', 'flow_id', 'pipeline_id', 'since', 'before'] as const;

/** An ISO time as a datetime-local input shows it (the user's local time, to the minute). */
function localInput(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The searchable log with every filter the API has, kept in the address. */
export function Logs({ route }: { route: Route }) {
  const current = Object.fromEntries(FILTERS.map((k) => [k, route.query.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const page = Number(route.query.get('page') ?? 1) || 1;
  const [search, setSearch] = useState(current.search);
  const list = useLoad(
    () =>
      call<{ data: { items: LogEntry[]; total: number; pages: number } }>('GET', '/logs', { query: { ...current, per_page: 50, page } }),
    [route.query.toString()],
  );
  const go = (changes: Partial<Record<(typeof FILTERS)[number] | 'page', string>>) =>
    navigate('/logs', { ...current, page: undefined, ...changes });
  return (
    <Page title="Logs">
      <form
        class="inline card filters"
        aria-label="Filter logs"
        onSubmit={(e) => {
          e.preventDefault();
          go({ search });
        }}
      >
        <label>
          Level
          <select name="level" value={current.level} onChange={(e) => go({ level: (e.target as HTMLSelectElement).value })}>
            <option value="">Any</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search
          <input name="search" type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </label>
        {(['job_id', 'flow_id', 'pipeline_id'] as const).map((key) => (
          <label key={key}>
            {key.replace('_id', '')} id
            <input
              name={key}
              type="number"
              min={1}
              value={current[key]}
              onChange={(e) => go({ [key]: (e.target as HTMLInputElement).value })}
            />
          </label>
        ))}
        {(['since', 'before'] as const).map((key) => (
          <label key={key}>
            {key === 'since' ? 'After' : 'Before'}
            <input
              name={key}
              type="datetime-local"
              value={localInput(current[key])}
              onChange={(e) => {
                const value = (e.target as HTMLInputElement).value;
                go({ [key]: value ? new Date(value).toISOString() : '' });
              }}
            />
          </label>
        ))}
        <button type="submit">Search</button>
        {FILTERS.some((k) => current[k]) ? <a href={href('/logs')}>Clear filters</a> : null}
      </form>
      <ErrorNote error={list.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : list.data.data.items.length === 0 ? (
        <p class="empty">No log entries match.</p>
      ) : (
        <ol class="log">
          {list.data.data.items.map((entry) => (
            <li key={entry.id} class={`log-${entry.level}`}>
              <span class="log-time">{when(entry.created_at)}</span> <span class={`level level-${entry.level}`}>{entry.level}</span>{' '}
              <span class="log-message">{entry.message}</span>
              {typeof entry.context.job_id === 'number' ? (
                <a class="log-link" href={href(`/jobs/${entry.context.job_id}`)}>
                  job {entry.context.job_id}
                </a>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {list.data && list.data.data.pages > 1 ? (
        <nav class="pager" aria-label="Pages of log entries">
          {page > 1 ? <a href={href('/logs', { ...current, page: page - 1 })}>Newer</a> : null}
          <span class="muted">
            Page {page} of {list.data.data.pages}
          </span>
          {page < list.data.data.pages ? <a href={href('/logs', { ...current, page: page + 1 })}>Older</a> : null}
        </nav>
      ) : null}
    </Page>
  );
}
