import { DEFAULT_PER_PAGE, LOG_LEVELS, MAX_PER_PAGE } from './model.js';

/**
 * ISO 8601 date or date-time, `T` or a space between, optional seconds, fraction and
 * zone. Looser than ajv's `date-time` (which demands a zone) because the spec says only
 * "ISO datetime"; a time without a zone is read as UTC, the zone log times are kept in.
 */
const ISO_INSTANT = '^\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?)?(?:Z|z|[+-]\\d{2}:?\\d{2})?$';

const agentId = { type: 'integer', minimum: 0, description: 'Only entries of this agent; omit for all agents' } as const;
const contextId = (what: string) =>
  ({ type: 'integer', minimum: 1, description: `Entries whose context.${what} is exactly this id` }) as const;
const instant = (what: string) => ({ type: 'string', pattern: ISO_INSTANT, maxLength: 40, description: what }) as const;

/** GET /logs. An empty `level` or `search` (as form clients send) means no filter. */
export const listLogsQuery = {
  type: 'object',
  properties: {
    agent_id: agentId,
    level: { enum: [...LOG_LEVELS, ''], description: 'Exact level' },
    since: instant('ISO datetime: entries after it, to the precision given (UTC when no zone is given)'),
    before: instant('ISO datetime: entries strictly before it (UTC when no zone is given)'),
    job_id: contextId('job_id'),
    flow_id: contextId('flow_id'),
    pipeline_id: contextId('pipeline_id'),
    search: { type: 'string', maxLength: 200, description: 'Case-insensitive text within the message (no wildcards)' },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
    page: { type: 'integer', minimum: 1, default: 1 },
  },
} as const;

/** GET /logs/metadata and DELETE /logs: optionally one agent. */
export const agentScopeQuery = { type: 'object', properties: { agent_id: agentId } } as const;

/**
 * DELETE /logs. `days` is declared only to be refused (routes.ts): older clients send it
 * meaning "older than N days", and ignoring it would clear everything.
 */
export const deleteLogsQuery = {
  type: 'object',
  properties: { agent_id: agentId, days: { description: 'No longer supported: answered 400, nothing deleted' } },
} as const;

/**
 * The last instant `text` names at its own precision: a date names its whole day, a time
 * to the minute or second that whole minute or second, a fraction that very instant.
 * `since` means entries after it: a client that sends back a shown created_at (to the
 * second) must not get the entries of that second again. Null when it names no instant.
 */
export function endOfNamedInstant(text: string): Date | null {
  const start = parseIsoInstant(text);
  if (!start) return null;
  const time = /[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?/.exec(text);
  const span = !time ? 86_400_000 : time[4] ? 1 : time[3] ? 1000 : 60_000;
  return new Date(start.getTime() + span - 1);
}

/**
 * The instant an ISO text names, or null when it names none (e.g. month 13). The schema
 * pattern has already checked the shape; Date.parse would read a zone-less date-time as
 * local time, so UTC is made explicit first.
 */
export function parseIsoInstant(text: string): Date | null {
  if (!new RegExp(ISO_INSTANT).test(text)) return null;
  let normalized = text.replace(' ', 'T');
  if (!normalized.includes('T')) normalized += 'T00:00:00';
  if (!/(?:Z|z|[+-]\d{2}:?\d{2})$/.test(normalized)) normalized += 'Z';
  normalized = normalized.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const time = Date.parse(normalized);
  if (Number.isNaN(time)) return null;
  // Date.parse rolls some impossible dates over (2026-02-30 → March 2): refuse those.
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text)!;
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) return null;
  return new Date(time);
}
