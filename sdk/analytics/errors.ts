/**
 * The analytics error codes (spec 02): one code, `analytics_error`, with the status saying
 * why; plus the analytics plugin's own. Declared once here because both the analytics
 * plugin and the tool plugins built on this SDK throw them.
 */
import { type ApiError, definePluginErrors } from '../index.js';
import { allowedActions } from './catalogue.js';

/** What an error names of a tool: its id (the `{tool}` segment) and, for a bad request, its actions. */
export interface ToolRef {
  id: string;
  actions: readonly string[];
}

export const analyticsError = definePluginErrors('analytics', {
  analytics_error: {
    status: [400, 422, 502],
    message: 'The analytics tool failed.',
    when: '400 a bad action or parameter (the message lists the allowed actions), 422 the tool lacks configuration, 502 the remote service failed (`data.remote_status`)',
  },
  analytics_config_invalid: {
    status: 400,
    message: 'Invalid analytics configuration.',
    when: 'a configuration field the tool refuses; `data.field` names it',
  },
  invalid_tool: { status: 400, message: 'Unknown analytics tool.' },
  ability_not_found: { status: 500, message: 'The analytics tool is not available: its plugin is not loaded in this build.' },
});

/** 400: a bad action or parameter; the message always lists the allowed actions. */
export const invalidParameter = (entry: ToolRef, problem: string): ApiError =>
  analyticsError('analytics_error', { status: 400, message: `${problem} ${allowedActions(entry)}`, data: { tool: entry.id } });

/** 422: the tool lacks configuration (a configuration error, not the caller's). */
export const notConfigured = (entry: Pick<ToolRef, 'id'>, missing: string[]): ApiError =>
  analyticsError('analytics_error', {
    status: 422,
    message: `The ${entry.id} tool is not configured: set ${missing.join(' and ')} (PUT /analytics/${entry.id}/config or \`flowhost analytics configure ${entry.id}\`).`,
    data: { tool: entry.id, missing },
  });

/** 502: the remote service failed or refused; the message is already free of credentials. */
export const remoteFailure = (entry: Pick<ToolRef, 'id'>, message: string, remoteStatus: number | null): ApiError =>
  analyticsError('analytics_error', { status: 502, message, data: { tool: entry.id, remote_status: remoteStatus } });
