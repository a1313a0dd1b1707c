// A provider's consent screen for browser OAuth tests, on its own port (another site once
// Chromium maps a host name to it): /authorize shows an "Allow" link to the fake
// provider's own authorize endpoint with the same query, which redirects back to Flowhost
// with a code. The return is then a navigation started by the provider's page, as with a
// real provider. And a free port, for a host whose public URL must name it before it starts.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';

export async function startConsentPage(authorizeUrl: string): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').search;
    const target = `${authorizeUrl}${query}`.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Consent</title><p>Flowhost wants your spreadsheets.</p><a id="allow" href="${target}">Allow</a>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return server;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
