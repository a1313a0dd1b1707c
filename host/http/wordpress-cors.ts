/**
 * CORS as WordPress's REST server sends it, for surfaces that declare `cors: 'wordpress'`
 * (wp/v2 and the API index): with an Origin, rest_send_cors_headers() echoes it and allows
 * credentials; on every answer, serve_request() exposes the paging headers and names the
 * request headers a client may send. A cookie still counts only with its nonce, and no
 * route of such a surface hands the nonce out, so another origin gets no more than a
 * stranger unless it holds an application password.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
const EXPOSE = 'X-WP-Total, X-WP-TotalPages, Link';
const ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';

export function setWordPressCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  // 'null' (file: and data: pages) is echoed as WordPress does; anything that is not a
  // plain origin is not echoed at all.
  if (origin && (origin === 'null' || /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+$/i.test(origin))) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', METHODS);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
  }
  // The answer differs by Origin: shared caches must key on it.
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', EXPOSE);
  res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
}

/**
 * The answer to a preflight (OPTIONS) on such a route: the headers, an Allow list, and a
 * JSON body naming the methods (WordPress answers OPTIONS with JSON too; every answer of
 * this host is a JSON object, which the fuzz suite holds it to).
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, methods: readonly string[]): void {
  setWordPressCors(req, res);
  const allowed = [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))];
  res.setHeader('Allow', allowed.join(', '));
  const body = JSON.stringify({ success: true, methods: allowed });
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.writeHead(200);
  res.end(body);
}
