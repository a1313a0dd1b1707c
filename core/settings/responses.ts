/** The bodies the settings routes answer (see docs/api.md). */
import type { JsonSchema } from '../kernel/json-schema.js';
import { int, list, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

const siteSettings = obj({
  problem_flow_threshold: int,
  flows_per_page: int,
  jobs_per_page: int,
  default_provider: str,
  default_model: str,
  max_turns: int,
  log_retention_days: int,
  job_retention_days: int,
  forget_processed_items_after_days: int,
});
const both = obj({ settings: siteSettings, defaults: siteSettings });

export const settingsResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /settings': { 200: successBody({ data: both }) },
  'PATCH /settings': { 200: successBody({ message: str, data: both }) },
  'PUT /settings': { 200: successBody({ message: str, data: both }) },
  'GET /settings/scheduling-intervals': { 200: successBody({ data: list(obj({ value: str, label: str, seconds: nullable(int) })) }) },
};
