/**
 * Talking to a registered MCP server with the official SDK's client over Streamable HTTP.
 * Every request goes through the host's guarded fetch (private addresses refused unless the
 * host allows them, a time and size limit on each): the SDK's `fetch` option takes an
 * adapter. One connection per operation (initialize, one request, close): a call needs no
 * session kept between runs, and nothing stays open when a host stops. The SDK is loaded at
 * the first call, so a host that never calls a remote never loads it.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FLOWHOST_VERSION, type GuardedFetch } from '../../sdk/index.js';
import { MASK } from './servers.js';

/** What one response may weigh: a tool listing or a result the model reads. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Pages of a tool listing followed before the rest is left out. */
const MAX_LIST_PAGES = 10;

export interface RemoteTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The opened secret: cut out of any error message that quotes it. */
  secret: string;
}

/** A remote failure, its message free of the secret; the caller says which server and what. */
export class RemoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteError';
  }
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The SDK's fetch, through the guarded fetch. A GET is the SDK opening a stream for
 * messages the server sends on its own: Flowhost sends one request at a time and reads its
 * answer, so it declines with the 405 a server without such a stream answers, and a
 * buffered fetch never waits on a stream that does not end.
 */
export function guardedTransportFetch(fetch: GuardedFetch, timeoutMs: number): FetchLike {
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405 });
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const res = await fetch(String(url), {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      maxRedirects: 0,
    });
    const empty = [101, 204, 205, 304].includes(res.status) || method === 'HEAD' || method === 'DELETE';
    return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  };
}

function scrubbed(error: unknown, secret: string): RemoteError {
  let message = error instanceof Error ? error.message : String(error);
  if (secret) message = message.split(secret).join(MASK);
  return new RemoteError(message.slice(0, 1000));
}

async function withClient<T>(fetch: GuardedFetch, target: RemoteTarget, work: (client: Client) => Promise<T>): Promise<T> {
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  const client = new Client({ name: 'flowhost', version: FLOWHOST_VERSION });
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    requestInit: { headers: target.headers },
    fetch: guardedTransportFetch(fetch, target.timeoutMs),
  });
  try {
    await client.connect(transport, { timeout: target.timeoutMs });
    return await work(client);
  } catch (error) {
    throw scrubbed(error, target.secret);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The tools the server lists now (every page, up to a bound). */
export function listRemoteTools(fetch: GuardedFetch, target: RemoteTarget): Promise<Tool[]> {
  return withClient(fetch, target, async (client) => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await client.listTools(cursor ? { cursor } : {}, { timeout: target.timeoutMs });
      tools.push(...answer.tools);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
    return tools;
  });
}

/** One call of a tool; a tool's own error comes back as a result with `isError`. */
export function callRemoteTool(
  fetch: GuardedFetch,
  target: RemoteTarget,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return withClient(fetch, target, async (client) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: target.timeoutMs });
    return result as CallToolResult;
  });
}
