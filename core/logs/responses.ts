/** The bodies the log routes answer: the spec's `data.*` fields, repeated at the top level for the admin client. */
import type { JsonSchema } from '../kernel/json-schema.js';
import { anyObject, int, list, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

const time: JsonSchema = { type: 'string', description: "UTC 'YYYY-MM-DD HH:MM:SS'" };
const entry = obj({
  id: int,
  agent_id: nullable(int),
  user_id: nullable(int),
  level: { enum: ['debug', 'info', 'warning', 'error', 'critical'] },
  message: str,
  context: anyObject,
  created_at: time,
});
const page = { items: list(entry), total: int, page: int, pages: int };
const metadata = { total_entries: int, oldest: nullable(time), newest: nullable(time) };

export const logsResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /logs': { 200: successBody({ data: obj(page), ...page }) },
  'GET /logs/metadata': { 200: successBody({ data: obj(metadata), ...metadata }) },
  'DELETE /logs': { 200: successBody({ message: str, deleted_count: int, data: obj({ deleted_count: int }) }) },
};
