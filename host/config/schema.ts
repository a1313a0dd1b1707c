import type { JsonSchema } from '../../core/kernel/json-schema.js';

/** The host's configuration, after env and file are merged and validated. */
export interface HostConfig {
  port: number;
  host: string;
  dataDir: string;
  mongodbUrl?: string;
  secretKey?: string;
  apiPrefix: string;
  coreNamespace: string;
  publicUrl?: string;
  /** Extra plugins: optional built-in ids or module specifiers. */
  plugins: string[];
  /**
   * Packages the API may install (`POST /installed-plugins`): names, or scopes as `@acme/*`.
   * Empty: any. The CLI, run by whoever holds the data directory, is not limited.
   */
  pluginAllow?: string[];
  /** Settings per plugin id. */
  pluginSettings: Record<string, Record<string, unknown>>;
  allowPrivateUrls: boolean;
  /** JSON body limit in bytes. */
  bodyLimit: number;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * Store `debug` entries (item-level run detail) in the searchable log (GET /logs).
   * Off by default; `logLevel` debug or trace turns it on as well.
   */
  logDebug: boolean;
  /** How much of each step's input and of its output a job keeps, in bytes of JSON (the rest is counted, not kept). */
  stepRecordBytes: number;
  /** Failed logins allowed per login and address in `loginWindowSeconds`. */
  loginMaxFailures: number;
  /** Failed logins allowed per address (any login) in `loginWindowSeconds`. */
  loginMaxFailuresPerIp: number;
  /**
   * Failed logins per login from every address in `loginWindowSeconds`; past it the login is
   * refused only from addresses it has not signed in from in `loginKnownAddressDays`.
   */
  loginMaxFailuresPerLogin: number;
  loginKnownAddressDays: number;
  loginWindowSeconds: number;
  /**
   * Which peers may tell the client's address, scheme and host (X-Forwarded-For/-Proto/-Host,
   * RFC 7239 Forwarded): empty trusts nobody; a hop count; or a comma-separated list of
   * addresses, CIDR ranges and `loopback`/`linklocal`/`uniquelocal`.
   */
  trustProxy: string;
  /** The header the trusted proxies write the client into (only it is read): 'x-forwarded-for' or 'forwarded' (RFC 7239). */
  proxyHeader: 'x-forwarded-for' | 'forwarded';
  /**
   * Hosts (`name` or `name:port`) a trusted proxy may name as the public one when
   * `publicUrl` is not set: links use the client's host when it is listed, else the first
   * entry. With a trusted proxy, one of the two must be set (start-up stops otherwise).
   */
  allowedHosts: string[];
  /** `Strict-Transport-Security: max-age=` on answers to requests that came over https (0 tells browsers to forget it). */
  hstsMaxAge: number;
  /** Time a client has to send its complete request headers. */
  headersTimeoutMs: number;
  /** Time without a byte while a request body is read before it is refused with 408. */
  bodyIdleTimeoutMs: number;
  /** Time to read a body of up to 1 MiB; larger bodies get 1 s more per `uploadMinBytesPerSecond`. */
  bodyTimeoutMs: number;
  uploadMinBytesPerSecond: number;
  /** Hard ceiling on reading any one request (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections at once, in total and per peer address (trusted proxies are exempt from the latter). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** A cookie session's absolute lifetime from sign-in (see docs/operations.md, "Sessions"). */
  sessionTtlSeconds: number;
  /** A cookie session ends after this long without a request it authenticated. */
  sessionIdleSeconds: number;
  /** How often the scheduler looks for due runs, in ms. */
  schedulerProcessEvery: number;
  /** How long a scheduler lock holds before another host takes a run over, in ms. */
  schedulerLockLifetime: number;
  /**
   * A run's lease, in seconds: renewed every third of it while the run runs; a run whose
   * lease lapsed is a dead host's, failed as interrupted and its flow freed (docs/architecture.md).
   */
  runLeaseSeconds: number;
  /**
   * Check every JSON answer against the route's declared response schema (objects closed);
   * a mismatch becomes a 500 `rest_response_invalid`. For tests: createTestHost turns it on.
   */
  checkResponses: boolean;
  /**
   * How far V8 lets the heap grow past what the last full collection kept before the next
   * one, in percent (V8's --heap-growing-percent); 0 leaves V8's own, adaptive factor. See
   * host/runtime/heap-growth.ts.
   */
  heapGrowingPercent: number;
  /**
   * How long a stop (SIGTERM, SIGINT, host.stop()) waits for requests in flight and running
   * jobs before it closes the remaining connections and the store anyway, in seconds. Runs
   * cut off are failed as interrupted at the next boot.
   */
  shutdownTimeoutSeconds: number;
}

/** Where each key may come from in the environment. */
export const envKeys: Record<string, { key: keyof HostConfig; type: 'string' | 'integer' | 'boolean' | 'list' }> = {
  PORT: { key: 'port', type: 'integer' },
  HOST: { key: 'host', type: 'string' },
  FLOWHOST_DATA_DIR: { key: 'dataDir', type: 'string' },
  MONGODB_URL: { key: 'mongodbUrl', type: 'string' },
  FLOWHOST_SECRET_KEY: { key: 'secretKey', type: 'string' },
  FLOWHOST_API_PREFIX: { key: 'apiPrefix', type: 'string' },
  FLOWHOST_CORE_NAMESPACE: { key: 'coreNamespace', type: 'string' },
  FLOWHOST_PUBLIC_URL: { key: 'publicUrl', type: 'string' },
  FLOWHOST_PLUGINS: { key: 'plugins', type: 'list' },
  FLOWHOST_PLUGIN_ALLOW: { key: 'pluginAllow', type: 'list' },
  FLOWHOST_ALLOW_PRIVATE_URLS: { key: 'allowPrivateUrls', type: 'boolean' },
  FLOWHOST_BODY_LIMIT: { key: 'bodyLimit', type: 'integer' },
  FLOWHOST_LOG_LEVEL: { key: 'logLevel', type: 'string' },
  FLOWHOST_LOG_DEBUG: { key: 'logDebug', type: 'boolean' },
  FLOWHOST_STEP_RECORD_BYTES: { key: 'stepRecordBytes', type: 'integer' },
  FLOWHOST_CHECK_RESPONSES: { key: 'checkResponses', type: 'boolean' },
  FLOWHOST_HEAP_GROWING_PERCENT: { key: 'heapGrowingPercent', type: 'integer' },
  FLOWHOST_TRUST_PROXY: { key: 'trustProxy', type: 'string' },
  FLOWHOST_PROXY_HEADER: { key: 'proxyHeader', type: 'string' },
  FLOWHOST_ALLOWED_HOSTS: { key: 'allowedHosts', type: 'list' },
  FLOWHOST_HSTS_MAX_AGE: { key: 'hstsMaxAge', type: 'integer' },
  FLOWHOST_HEADERS_TIMEOUT_MS: { key: 'headersTimeoutMs', type: 'integer' },
  FLOWHOST_BODY_IDLE_TIMEOUT_MS: { key: 'bodyIdleTimeoutMs', type: 'integer' },
  FLOWHOST_BODY_TIMEOUT_MS: { key: 'bodyTimeoutMs', type: 'integer' },
  FLOWHOST_UPLOAD_MIN_BYTES_PER_SECOND: { key: 'uploadMinBytesPerSecond', type: 'integer' },
  FLOWHOST_REQUEST_TIMEOUT_MS: { key: 'requestTimeoutMs', type: 'integer' },
  FLOWHOST_KEEP_ALIVE_TIMEOUT_MS: { key: 'keepAliveTimeoutMs', type: 'integer' },
  FLOWHOST_MAX_CONNECTIONS: { key: 'maxConnections', type: 'integer' },
  FLOWHOST_MAX_CONNECTIONS_PER_ADDRESS: { key: 'maxConnectionsPerAddress', type: 'integer' },
  FLOWHOST_LOGIN_MAX_FAILURES: { key: 'loginMaxFailures', type: 'integer' },
  FLOWHOST_LOGIN_MAX_FAILURES_PER_IP: { key: 'loginMaxFailuresPerIp', type: 'integer' },
  FLOWHOST_LOGIN_MAX_FAILURES_PER_LOGIN: { key: 'loginMaxFailuresPerLogin', type: 'integer' },
  FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS: { key: 'shutdownTimeoutSeconds', type: 'integer' },
  FLOWHOST_SESSION_TTL_SECONDS: { key: 'sessionTtlSeconds', type: 'integer' },
  FLOWHOST_SESSION_IDLE_SECONDS: { key: 'sessionIdleSeconds', type: 'integer' },
  FLOWHOST_RUN_LEASE_SECONDS: { key: 'runLeaseSeconds', type: 'integer' },
};

export const defaultConfig: HostConfig = {
  port: 8080,
  host: '127.0.0.1',
  dataDir: './data',
  apiPrefix: '/api',
  coreNamespace: 'automation/v1',
  plugins: [],
  pluginSettings: {},
  allowPrivateUrls: false,
  bodyLimit: 1024 * 1024,
  logLevel: 'info',
  logDebug: false,
  stepRecordBytes: 64 * 1024,
  loginMaxFailures: 5,
  loginMaxFailuresPerIp: 50,
  loginMaxFailuresPerLogin: 30,
  loginKnownAddressDays: 30,
  loginWindowSeconds: 900,
  trustProxy: '',
  proxyHeader: 'x-forwarded-for',
  allowedHosts: [],
  // One year: OWASP's and the HSTS preload list's figure. No includeSubDomains: the other
  // hosts of the operator's domain are not Flowhost's to commit to TLS.
  hstsMaxAge: 31_536_000,
  // Slowloris: Node's default gives headers 60 s and checks only every 30 s.
  headersTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 20_000,
  bodyTimeoutMs: 60_000,
  // A 64 MiB upload may take 60 s + 1024 s; slower than 64 KiB/s is refused with 408.
  uploadMinBytesPerSecond: 64 * 1024,
  requestTimeoutMs: 30 * 60_000,
  // Idle keep-alive sockets outlive the proxy's and clients' own idle timeouts (nginx's
  // upstream keepalive_timeout is 60 s), so the peer always closes first and never reuses
  // a socket this host is closing.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 4096,
  maxConnectionsPerAddress: 128,
  // NIST SP 800-63B's AAL2 bounds (docs/operations.md, "Sessions"): 12 h from sign-in, 30 min idle.
  sessionTtlSeconds: 12 * 3600,
  sessionIdleSeconds: 30 * 60,
  // Agenda locks every job due within one poll ahead and walks that whole local queue
  // after each run ends, so the walk grows with runs/s × this. At 80 scheduled runs/s a
  // 5 s poll cost 14 ms of CPU a run and 266 ms p99 lateness; 1 s: 5.9 ms and 40 ms. A
  // poll that finds nothing is two indexed reads per job name.
  schedulerProcessEvery: 1000,
  schedulerLockLifetime: 10 * 60 * 1000,
  // Everything a killed host acknowledged runs within 60 s: stale after 30 s, swept every 15 s.
  runLeaseSeconds: 30,
  checkResponses: false,
  heapGrowingPercent: 50,
  // What the engine's drain was bounded by before this was a setting; long enough for a
  // request or a step to end, short of the 30 s most supervisors wait before SIGKILL.
  shutdownTimeoutSeconds: 10,
};

export const configSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    host: { type: 'string', minLength: 1 },
    dataDir: { type: 'string', minLength: 1 },
    mongodbUrl: { type: 'string', pattern: '^mongodb(\\+srv)?://' },
    secretKey: { type: 'string', minLength: 1 },
    apiPrefix: { type: 'string', pattern: '^(/[A-Za-z0-9._~-]+)*$' },
    coreNamespace: { type: 'string', pattern: '^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$' },
    publicUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
    plugins: { type: 'array', items: { type: 'string', minLength: 1 } },
    pluginAllow: { type: 'array', items: { type: 'string', minLength: 1 } },
    pluginSettings: { type: 'object', additionalProperties: { type: 'object' } },
    allowPrivateUrls: { type: 'boolean' },
    bodyLimit: { type: 'integer', minimum: 1024, maximum: 1073741824 },
    logLevel: { enum: ['trace', 'debug', 'info', 'warn', 'error', 'silent'] },
    logDebug: { type: 'boolean' },
    stepRecordBytes: { type: 'integer', minimum: 1024, maximum: 16777216 },
    loginMaxFailures: { type: 'integer', minimum: 1 },
    loginMaxFailuresPerIp: { type: 'integer', minimum: 1 },
    loginWindowSeconds: { type: 'integer', minimum: 1 },
    loginMaxFailuresPerLogin: { type: 'integer', minimum: 1 },
    loginKnownAddressDays: { type: 'integer', minimum: 1, maximum: 3650 },
    trustProxy: { type: 'string', maxLength: 4096 },
    proxyHeader: { enum: ['x-forwarded-for', 'forwarded'] },
    // The shape request-origin.ts reads a forwarded host in: a name or a bracketed IPv6 address, and a port.
    allowedHosts: {
      type: 'array',
      items: { type: 'string', pattern: '^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]{2,45}\\])(?::\\d{1,5})?$' },
    },
    hstsMaxAge: { type: 'integer', minimum: 0, maximum: 315_360_000 },
    headersTimeoutMs: { type: 'integer', minimum: 100, maximum: 600_000 },
    bodyIdleTimeoutMs: { type: 'integer', minimum: 100, maximum: 3_600_000 },
    bodyTimeoutMs: { type: 'integer', minimum: 100, maximum: 3_600_000 },
    uploadMinBytesPerSecond: { type: 'integer', minimum: 1024 },
    requestTimeoutMs: { type: 'integer', minimum: 1000, maximum: 86_400_000 },
    keepAliveTimeoutMs: { type: 'integer', minimum: 100, maximum: 3_600_000 },
    maxConnections: { type: 'integer', minimum: 1 },
    maxConnectionsPerAddress: { type: 'integer', minimum: 1 },
    sessionTtlSeconds: { type: 'integer', minimum: 60 },
    sessionIdleSeconds: { type: 'integer', minimum: 60 },
    schedulerProcessEvery: { type: 'integer', minimum: 50, maximum: 3600000 },
    schedulerLockLifetime: { type: 'integer', minimum: 1000 },
    runLeaseSeconds: { type: 'integer', minimum: 1, maximum: 86_400 },
    checkResponses: { type: 'boolean' },
    heapGrowingPercent: { type: 'integer', minimum: 0, maximum: 1000 },
    shutdownTimeoutSeconds: { type: 'integer', minimum: 0, maximum: 3600 },
  },
};
