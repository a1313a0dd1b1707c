/** The MCP client plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const mcpClientError = definePluginErrors('mcp-client', {
  mcp_server_not_found: { status: 404, message: 'No MCP server with that name is registered.' },
  mcp_server_exists: { status: 409, message: 'An MCP server with that name is already registered.' },
  mcp_server_invalid: { status: 400, message: 'The MCP server registration is not valid.' },
  mcp_remote_failed: { status: 502, message: 'The MCP server could not be reached or failed.' },
});
