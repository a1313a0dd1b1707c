import type { SurfaceDefinition } from '../kernel/routes.js';
import type { LogFilters } from './model.js';
import { agentScopeQuery, deleteLogsQuery, endOfNamedInstant, listLogsQuery, parseIsoInstant } from './schemas.js';
import type { LogsService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { logsResponses } from './responses.js';
import { apiError } from '../errors/catalogue.js';
import { defineRoute } from '../../sdk/define.js';
import type { TypedRequest } from '../../sdk/typed-schemas.js';

/** Logs are read by holders of view_logs (administrators, and anyone granted it). */
const viewLogs = { capability: 'view_logs' } as const;

/** GET /logs's query as its schema admits it (defaults filled in). */
type ListQuery = TypedRequest<{ query: typeof listLogsQuery }>['query'];

function instant(text: string | undefined, field: 'since' | 'before'): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const date = field === 'since' ? endOfNamedInstant(text) : parseIsoInstant(text);
  if (!date)
    throw apiError('rest_invalid_param', {
      message: `Invalid parameter(s): ${field}`,
      data: { params: { [field]: `${field} is not a valid date` } },
    });
  return date;
}

function listFilters(query: ListQuery): LogFilters {
  return {
    agent_id: query.agent_id,
    level: query.level || undefined,
    since: instant(query.since, 'since'),
    before: instant(query.before, 'before'),
    job_id: query.job_id,
    flow_id: query.flow_id,
    pipeline_id: query.pipeline_id,
    search: query.search || undefined,
  };
}

/**
 * GET/DELETE /logs and GET /logs/metadata. Answers carry the spec's `data.*` fields and,
 * for the original admin client, the same fields at the top level (docs/api.md).
 */
export function logsSurface(logs: LogsService): SurfaceDefinition {
  return withResponses(
    {
      id: 'logs',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/logs',
          permission: viewLogs,
          summary: 'Log entries, newest first, filtered and paginated',
          schema: { query: listLogsQuery },
          async handle(request) {
            const query = request.query;
            const page = await logs.query(listFilters(query), { page: query.page, per_page: query.per_page });
            const fields = { items: page.items, total: page.total, page: page.page, pages: page.pages };
            return { success: true, data: fields, ...fields };
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/logs/metadata',
          permission: viewLogs,
          summary: 'Number of entries and the oldest / newest time, globally or for one agent',
          schema: { query: agentScopeQuery },
          async handle(request) {
            const { agent_id } = request.query;
            const metadata = await logs.metadata({ agent_id });
            return { success: true, data: metadata, ...metadata };
          },
        }),
        defineRoute({
          method: 'DELETE',
          path: '/logs',
          permission: viewLogs,
          summary: 'Delete the entries of one agent, or all entries',
          schema: { query: deleteLogsQuery },
          async handle(request) {
            const { agent_id, days } = request.query;
            // The spec dropped `days`: taken as absent it would clear every entry an older client meant to keep.
            if (days !== undefined)
              throw apiError('rest_invalid_param', {
                message:
                  'Invalid parameter(s): days (no longer supported: DELETE /logs clears one agent or all entries; nothing was deleted)',
                data: { params: { days: 'days is no longer supported' } },
              });
            const deleted = await logs.delete({ agent_id });
            const scope = agent_id === undefined ? 'all agents' : `agent ${agent_id}`;
            return {
              success: true,
              message: `Deleted ${deleted} log ${deleted === 1 ? 'entry' : 'entries'} (${scope}).`,
              deleted_count: deleted,
              data: { deleted_count: deleted },
            };
          },
        }),
      ],
    },
    logsResponses,
  );
}
