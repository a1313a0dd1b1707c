/**
 * The run record as GET /jobs/{id}?include=packets shows it: each step's input and output
 * items (bounded, secrets masked, with what was cut), and what started the run.
 */
import type { JsonSchema } from '../kernel/json-schema.js';
import { maskDeep } from '../security/mask.js';
import type { JobRecord, RecordedPackets } from './model.js';

/** How much of a webhook's payload the run's page shows (bytes of JSON); the rest is counted. */
export const TRIGGER_PAYLOAD_BYTES = 64 * 1024;

function parsedArray(json: string): unknown[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** A step's recorded packets: the kept items, how many there were, and what was cut (null when nothing). */
export function recordedView(record: RecordedPackets | undefined): Record<string, unknown> | null {
  if (!record || typeof record.json !== 'string') return null;
  return {
    items: parsedArray(record.json),
    count: record.count,
    truncated: record.cut_items ? { items: record.cut_items, bytes: record.cut_bytes ?? 0 } : null,
    masked: record.masked === true,
  };
}

/** A webhook payload, secrets masked; past TRIGGER_PAYLOAD_BYTES only its size is told. */
function payloadView(payload: unknown): Record<string, unknown> {
  const masked = maskDeep(payload);
  const text = JSON.stringify(masked) ?? 'null';
  const bytes = Buffer.byteLength(text);
  return bytes > TRIGGER_PAYLOAD_BYTES ? { payload: null, truncated: { bytes } } : { payload: masked, truncated: null };
}

/** What started the run: its source, who asked, the job it retries, a webhook's request id and payload. */
export function triggerView(job: JobRecord): Record<string, unknown> {
  const retryOf = typeof job.retry_of === 'number' ? job.retry_of : null;
  const webhook = job.engine_data?.webhook_trigger as Record<string, unknown> | undefined;
  return {
    kind: retryOf !== null ? 'retry' : job.source,
    retry_of: retryOf,
    ...(retryOf !== null ? { retry_from: job.retry_from ?? 'failed_step' } : {}),
    retried_by: typeof job.retried_by === 'number' ? job.retried_by : null,
    user_login: job.started_by?.login ?? null,
    // A retry carries the retried run's data: a webhook's payload shows on it too.
    ...((job.source === 'webhook' || retryOf !== null) && webhook && typeof webhook === 'object'
      ? {
          webhook: {
            request_id: typeof webhook.request_id === 'string' ? webhook.request_id : null,
            received_at: typeof webhook.received_at === 'string' ? webhook.received_at : null,
            ...payloadView(webhook.payload),
          },
        }
      : {}),
  };
}

const openObject = { type: 'object', additionalProperties: true } as const;

/** steps[].input and steps[].output. */
export const recordedSchema: JsonSchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['items', 'count', 'truncated', 'masked'],
      properties: {
        items: { type: 'array', items: { type: 'object', additionalProperties: true } },
        count: { type: 'integer', description: 'How many items there were in all' },
        truncated: {
          anyOf: [
            { type: 'null' },
            { type: 'object', required: ['items', 'bytes'], properties: { items: { type: 'integer' }, bytes: { type: 'integer' } } },
          ],
          description: 'null when every item was kept; else how many items (and bytes of JSON) did not fit the record',
        },
        masked: { type: 'boolean', description: 'true when secret-looking fields were masked' },
      },
    },
  ],
};

/** The job's `trigger`. */
export const triggerSchema: JsonSchema = {
  type: 'object',
  required: ['kind', 'retry_of', 'retried_by', 'user_login'],
  properties: {
    kind: { enum: ['execute', 'schedule', 'webhook', 'cli', 'chat', 'mcp', 'retry'] },
    retry_of: { type: ['integer', 'null'], description: 'The job this run retries' },
    retry_from: { enum: ['failed_step', 'start'], description: 'A retry: where it started' },
    retried_by: { type: ['integer', 'null'], description: 'The job that retries this run, once retried' },
    user_login: { type: ['string', 'null'] },
    webhook: {
      type: 'object',
      required: ['request_id', 'received_at', 'payload', 'truncated'],
      properties: {
        request_id: { type: ['string', 'null'] },
        received_at: { type: ['string', 'null'] },
        payload: {},
        truncated: { anyOf: [{ type: 'null' }, { type: 'object', required: ['bytes'], properties: { bytes: { type: 'integer' } } }] },
      },
    },
  },
};

/** The job's `ran_with`: the flow's steps as the run planned them. */
export const ranWithSchema: JsonSchema = {
  anyOf: [
    { type: 'null' },
    {
      type: 'array',
      items: {
        type: 'object',
        required: ['flow_step_id', 'step_type', 'handler_slug', 'enabled', 'handler_config'],
        properties: {
          flow_step_id: { type: 'string' },
          step_type: { type: 'string' },
          handler_slug: { type: ['string', 'null'] },
          enabled: { type: 'boolean' },
          handler_config: openObject,
        },
      },
    },
  ],
};
