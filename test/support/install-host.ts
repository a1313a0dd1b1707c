// A host of the stock build on a data directory (with whatever it installed), and calls to it
// with its local credential: for the plugin install suites (test/host/plugin-install/).
import { buildDefaultHost } from '../../host/default-build.js';
import { findBuild } from '../../host/build/build-declaration.js';
import { loadConfig } from '../../host/config/load-config.js';
import type { HostConfig } from '../../host/config/schema.js';
import type { Host } from '../../host/host.js';
import { readHostFile } from '../../host/runtime/data-dir-files.js';
import { LOCAL_SCHEME } from '../../host/auth/local-scheme.js';

/** An answer, read field by field in assertions. */
export type Body = Record<string, any>;

export async function startStockHost(config: Partial<HostConfig>): Promise<Host> {
  const full = loadConfig({ env: {}, overrides: { port: 0, host: '127.0.0.1', logLevel: 'silent', checkResponses: true, ...config } });
  const host = await buildDefaultHost(full, { build: findBuild(undefined, {}) });
  await host.start();
  return host;
}

/** A call with the host's local credential; `path` after the API prefix ('/hello/v1/greeting'). */
export async function callHost(
  dataDir: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
): Promise<Body> {
  const info = readHostFile(dataDir);
  if (!info) throw new Error(`No host runs on ${dataDir}`);
  const res = await fetch(`${info.url}/api${path}`, {
    method,
    headers: { Authorization: `${LOCAL_SCHEME} ${info.token}`, ...headers },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as Body) };
}
