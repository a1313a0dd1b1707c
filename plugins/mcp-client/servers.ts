/**
 * The registered MCP servers, in this plugin's store (`mcp-client__servers`, one document
 * per server, `_id` its name, so two registrations of one name cannot both be stored). The
 * bearer token or header value is sealed with the plugin's vault and answered masked: the
 * API, the logs and exports never carry it.
 */
import { DuplicateKeyError, type Clock, type Collection, type Vault } from '../../sdk/index.js';
import { mcpClientError } from './errors.js';

/** What every answer shows in place of a secret (a PATCH sending it back keeps the stored one). */
export const MASK = '••••••••';
const CONTEXT = 'mcp-client:auth';
/** Headers the transport sets itself; an auth header may not replace them. */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'content-length', 'host', 'mcp-session-id', 'mcp-protocol-version']);

export type AuthInput = { type: 'none' } | { type: 'bearer'; token: string } | { type: 'header'; header: string; value: string };

export interface ServerDoc extends Record<string, unknown> {
  _id: string;
  name: string;
  url: string;
  auth_type: 'none' | 'bearer' | 'header';
  auth_header: string | null;
  /** The token or header value, sealed; null for `none`. */
  auth_secret: string | null;
  allowed_tools: string[];
  chat: boolean;
  timeout_ms: number;
  created_at: string;
  updated_at: string;
}

export interface ServerInput {
  name?: string;
  url?: string;
  auth?: AuthInput;
  allowed_tools?: string[];
  chat?: boolean;
  timeout_ms?: number;
}

/** A server as the API answers it: the secret masked. */
export function serverView(doc: ServerDoc) {
  const auth =
    doc.auth_type === 'bearer'
      ? { type: 'bearer' as const, token: MASK }
      : doc.auth_type === 'header'
        ? { type: 'header' as const, header: doc.auth_header ?? '', value: MASK }
        : { type: 'none' as const };
  return {
    name: doc.name,
    url: doc.url,
    auth,
    allowed_tools: doc.allowed_tools,
    chat: doc.chat,
    timeout_ms: doc.timeout_ms,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

const invalid = (field: string, message: string) =>
  mcpClientError('mcp_server_invalid', { message, data: { params: { [field]: message } } });

/** A Streamable HTTP endpoint: http(s), no credentials in the address (they go in `auth`, sealed). */
export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', `'${url.slice(0, 200)}' is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('url', 'url must be http:// or https://');
  if (parsed.username || parsed.password) throw invalid('url', 'url must not carry a user or password: give them in auth, which is sealed');
  return parsed.toString();
}

export class McpServers {
  constructor(
    private readonly collection: Collection<ServerDoc>,
    private readonly vault: Vault,
    private readonly clock: Clock,
  ) {}

  list(): Promise<ServerDoc[]> {
    return this.collection.find({}, { sort: { name: 1 } });
  }

  async get(name: string): Promise<ServerDoc> {
    const doc = await this.collection.findOne({ _id: name });
    if (!doc) throw mcpClientError('mcp_server_not_found', { message: `No MCP server named '${name}' is registered`, data: { name } });
    return doc;
  }

  /** The headers a call sends, the secret opened. */
  headersOf(doc: ServerDoc): Record<string, string> {
    if (doc.auth_type === 'none' || !doc.auth_secret) return {};
    const secret = this.vault.decrypt(doc.auth_secret, CONTEXT);
    return doc.auth_type === 'bearer' ? { Authorization: `Bearer ${secret}` } : { [doc.auth_header ?? '']: secret };
  }

  /** The opened secret, so an error message that quotes it can be scrubbed; '' when none. */
  secretOf(doc: ServerDoc): string {
    return doc.auth_secret ? this.vault.decrypt(doc.auth_secret, CONTEXT) : '';
  }

  async create(input: Required<Pick<ServerInput, 'name' | 'url'>> & ServerInput): Promise<ServerDoc> {
    const now = this.clock.now().toISOString();
    const doc: ServerDoc = {
      _id: input.name,
      name: input.name,
      url: checkUrl(input.url),
      ...this.auth(input.auth ?? { type: 'none' }, null),
      allowed_tools: [...new Set(input.allowed_tools ?? [])],
      chat: input.chat ?? false,
      timeout_ms: input.timeout_ms ?? 30_000,
      created_at: now,
      updated_at: now,
    };
    try {
      return await this.collection.insertOne(doc);
    } catch (error) {
      if (error instanceof DuplicateKeyError || (error as { code?: unknown }).code === 'duplicate_key')
        throw mcpClientError('mcp_server_exists', {
          message: `An MCP server named '${input.name}' is already registered`,
          data: { name: input.name },
        });
      throw error;
    }
  }

  async update(name: string, patch: ServerInput): Promise<ServerDoc> {
    const current = await this.get(name);
    const set: Partial<ServerDoc> = { updated_at: this.clock.now().toISOString() };
    if (patch.url !== undefined) set.url = checkUrl(patch.url);
    if (patch.auth !== undefined) Object.assign(set, this.auth(patch.auth, current));
    if (patch.allowed_tools !== undefined) set.allowed_tools = [...new Set(patch.allowed_tools)];
    if (patch.chat !== undefined) set.chat = patch.chat;
    if (patch.timeout_ms !== undefined) set.timeout_ms = patch.timeout_ms;
    await this.collection.updateOne({ _id: name }, { $set: set });
    return this.get(name);
  }

  async remove(name: string): Promise<ServerDoc> {
    const doc = await this.get(name);
    await this.collection.deleteOne({ _id: name });
    return doc;
  }

  /** The stored auth fields; the mask given back for the same kind of auth keeps the sealed secret. */
  private auth(input: AuthInput, current: ServerDoc | null): Pick<ServerDoc, 'auth_type' | 'auth_header' | 'auth_secret'> {
    if (input.type === 'none') return { auth_type: 'none', auth_header: null, auth_secret: null };
    const given = input.type === 'bearer' ? input.token : input.value;
    const field = input.type === 'bearer' ? 'auth.token' : 'auth.value';
    let header: string | null = null;
    if (input.type === 'header') {
      if (RESERVED_HEADERS.has(input.header.toLowerCase()))
        throw invalid('auth.header', `auth.header '${input.header}' is set by the transport itself; name another header`);
      header = input.header;
    }
    if (given === MASK) {
      if (current?.auth_type !== input.type || !current.auth_secret)
        throw invalid(field, `${field} is the mask of a secret that is not stored; give the secret itself`);
      return { auth_type: input.type, auth_header: header, auth_secret: current.auth_secret };
    }
    if (given.trim() === '') throw invalid(field, `${field} is empty`);
    return { auth_type: input.type, auth_header: header, auth_secret: this.vault.encrypt(given, CONTEXT) };
  }
}
