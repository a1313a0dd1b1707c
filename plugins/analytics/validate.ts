/**
 * Checks a request body against the registered tool's parameter schema, so every bad
 * action or parameter is the spec's 400 `analytics_error` (listing the allowed actions)
 * rather than the host's generic parameter error.
 */
import { parameterValidators } from '../../sdk/index.js';
import type { AnalyticsToolDefinition, ToolRef } from '../../sdk/analytics/index.js';
import { invalidParameter } from '../../sdk/analytics/index.js';

// The body is validated as sent: no defaults filled in.
const validatorOf = parameterValidators<AnalyticsToolDefinition>({ useDefaults: false });

export function checkArguments(entry: ToolRef, tool: AnalyticsToolDefinition, body: Record<string, unknown>): void {
  if (typeof body.action !== 'string' || body.action === '') throw invalidParameter(entry, 'action is required.');
  if (!entry.actions.includes(body.action)) throw invalidParameter(entry, `Invalid action '${body.action.slice(0, 64)}'.`);
  const validate = validatorOf(tool);
  if (validate(body)) return;
  const issues = (validate.errors ?? []).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1) : 'body';
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty).slice(0, 64)})`
        : '';
    return `${where} ${e.message ?? 'is invalid'}${extra}`;
  });
  throw invalidParameter(entry, `Invalid parameter: ${issues.join('; ')}.`);
}
