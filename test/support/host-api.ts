// Reads a CLI test host's state straight from its API (the local credential in host.json),
// so a test checks what a command stored, not only what the command printed.
import { readHostFile } from '../../host/runtime/data-dir-files.js';
import { LOCAL_SCHEME } from '../../host/auth/local-scheme.js';

export interface HostAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** `path` is relative to the core namespace, e.g. '/flows/3'. */
export async function hostApi(dataDir: string, method: string, path: string, body?: unknown): Promise<HostAnswer> {
  const info = readHostFile(dataDir);
  if (!info) throw new Error(`No host.json in ${dataDir}`);
  const response = await fetch(`${info.api_base}${path}`, {
    method,
    headers: { Authorization: `${LOCAL_SCHEME} ${info.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
