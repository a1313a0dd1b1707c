/**
 * The MCP endpoint's refusals before a message reaches a tool, declared once: Flowhost
 * error bodies as on every route, with the transport's JSON-RPC error in `data.jsonrpc`
 * for a client that reads it. (An MCP client reads only the status of a refused POST.)
 */
import { definePluginErrors } from '../../sdk/index.js';

export const mcpError = definePluginErrors('mcp', {
  mcp_method_not_allowed: {
    status: 405,
    message: 'This MCP server is stateless: send JSON-RPC messages with POST (no event stream to GET, no session to DELETE).',
    when: 'GET or DELETE on {prefix}/mcp; the answer carries Allow: POST',
  },
  mcp_not_acceptable: {
    status: 406,
    message: 'Send Accept: application/json, text/event-stream.',
    when: 'a POST whose Accept header does not list both',
  },
  mcp_unsupported_media_type: {
    status: 415,
    message: 'Send the JSON-RPC message with Content-Type: application/json.',
    when: 'a POST with another media type',
  },
  mcp_invalid_message: {
    status: 400,
    message: 'The body is not a JSON-RPC 2.0 message of the Model Context Protocol.',
    when: 'JSON that is no JSON-RPC request or notification the transport accepts; data.jsonrpc holds its error',
  },
});
