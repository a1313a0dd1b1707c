/**
 * The `WWW-Authenticate` challenges the host sends. Their own module so the HTTP layer
 * names them without loading the authenticator and the users domain behind it.
 */
export const BASIC_CHALLENGE = 'Basic realm="flowhost"';
/** RFC 6750: a request whose bearer token failed is told so (`invalid_token`). */
export const BEARER_CHALLENGE = 'Bearer realm="flowhost", error="invalid_token"';
/**
 * What an anonymous caller of a route declared `challenge: true` (the MCP endpoint) is
 * told: both schemes it may use, Bearer first (MCP clients read the first challenge).
 */
export const ANONYMOUS_CHALLENGE = 'Bearer realm="flowhost", Basic realm="flowhost"';
