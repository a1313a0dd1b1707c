/** The analytics error bodies of spec 02: one code, `analytics_error`, with the status saying why. */
import { ApiError } from '../index.js';
import { allowedActions, type ToolCatalogueEntry } from './catalogue.js';

/** 400: a bad action or parameter; the message always lists the allowed actions. */
export const invalidParameter = (entry: ToolCatalogueEntry, problem: string): ApiError =>
  new ApiError('analytics_error', `${problem} ${allowedActions(entry)}`, 400, { tool: entry.id });

/** 422: the tool lacks configuration (a configuration error, not the caller's). */
export const notConfigured = (entry: ToolCatalogueEntry, missing: string[]): ApiError =>
  new ApiError('analytics_error', `The ${entry.id} tool is not configured: set ${missing.join(' and ')} (PUT /analytics/${entry.id}/config or \`flowhost analytics configure ${entry.id}\`).`, 422, { tool: entry.id, missing });

/** 502: the remote service failed or refused; the message is already free of credentials. */
export const remoteFailure = (entry: ToolCatalogueEntry, message: string, remoteStatus: number | null): ApiError =>
  new ApiError('analytics_error', message, 502, { tool: entry.id, remote_status: remoteStatus });
