/**
 * The built-in plugins' error catalogues: what docs/api.md's table of plugin error codes
 * is generated from (scripts/error-table.mjs), and what test/docs/error-table checks.
 * A built-in that declares codes with definePluginErrors adds its catalogue here.
 */
import type { ErrorEntries, ErrorFactory } from '../sdk/index.js';
import { analyticsError } from '../sdk/analytics/index.js';
import { billingError } from './billing/errors.js';
import { chatError } from './chat/errors.js';
import { docsyncError } from './docsync/errors.js';
import { eventsError } from './events/errors.js';
import { filesError } from './files/errors.js';
import { mcpError } from './mcp/errors.js';
import { mcpClientError } from './mcp-client/errors.js';
import { metricsError } from './metrics/errors.js';

export const pluginErrorCatalogues: ReadonlyArray<ErrorFactory<ErrorEntries>> = [
  analyticsError,
  billingError,
  chatError,
  docsyncError,
  eventsError,
  filesError,
  mcpError,
  mcpClientError,
  metricsError,
];
