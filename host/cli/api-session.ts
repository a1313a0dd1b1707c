import { createReadStream, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { uploadContentType } from '../../core/kernel/upload-type.js';
import type { HostConfig } from '../config/schema.js';
import { type DeclaredBuild, findBuild } from '../build/build-declaration.js';
import type { ResolvedBuild } from '../build/build-plugins.js';
import { type BuildRecord, buildDifference, readBuildRecord, readStoredBuildRecord } from '../build/build-record.js';
import { readInstalled } from '../plugin-install/plugins-folder.js';
import { hostProcessAlive, readHostFile, unpublishHost } from '../runtime/data-dir-files.js';
import { LOCAL_SCHEME } from '../auth/local-scheme.js';
import { CliError } from './admin-client.js';
import { apiError } from './api-error.js';
import { waitForStartingHost } from './data-dir-store.js';
import { type AnswerHeaders, type LoopbackAnswer, sendToHost } from './loopback-http.js';

export interface ApiSession {
  /** 'host': a running host answered; 'local': this command started the build itself. */
  readonly via: 'host' | 'local';
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { query?: Record<string, string | number | boolean | undefined>; body?: unknown; headers?: Record<string, string> },
  ): Promise<T>;
  /** The same, with `path` relative to the API prefix (a plugin's namespace: '/hello/v1/...'). */
  callApi<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { query?: Record<string, string | number | boolean | undefined>; body?: unknown; headers?: Record<string, string> },
  ): Promise<T>;
  /**
   * The same with the whole answer: any JSON body (a wp/v2 list is an array) and the
   * headers (X-WP-Total). Errors still throw a CliError with the server's message.
   */
  fetchApi<T = unknown>(
    method: string,
    path: string,
    options?: { query?: Record<string, string | number | boolean | undefined>; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: AnswerHeaders; body: T }>;
  /**
   * Streams a local file as the raw body of a POST to `path` (relative to the API prefix),
   * named by Content-Disposition; progress on stderr for files over 1 MB.
   */
  upload<T = Record<string, unknown>>(
    path: string,
    file: string,
    options?: { query?: Record<string, string | number | boolean | undefined> },
  ): Promise<T>;
  close(): Promise<void>;
}

/** Files at least this large report progress on stderr. */
const PROGRESS_FROM = 1024 * 1024;

function progressMeter(total: number, name: string): Transform {
  let sent = 0;
  let shown = -1;
  const show = total >= PROGRESS_FROM;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      const percent = total ? Math.floor((sent / total) * 100) : 100;
      if (show && percent !== shown && (percent % 5 === 0 || percent === 100)) {
        shown = percent;
        process.stderr.write(
          `\rUploading ${name}: ${percent}% (${(sent / 1048576).toFixed(1)} of ${(total / 1048576).toFixed(1)} MB)${percent === 100 ? '\n' : ''}`,
        );
      }
      done(null, chunk);
    },
  });
}

function answer<T>(response: LoopbackAnswer): T {
  const payload = response.json() as Record<string, unknown>;
  if (!response.ok || payload.success === false) throw apiError(payload, response.status);
  return payload as T;
}

/**
 * The core API for a CLI command: through the host that holds the data directory when
 * one runs; otherwise this process starts the build on a free loopback port for the
 * length of the command (so flows run with every plugin, exactly as in the server).
 */
export async function openApiSession(config: HostConfig, declared: DeclaredBuild = findBuild(undefined)): Promise<ApiSession> {
  const dataDir = resolve(config.dataDir);
  const live = config.mongodbUrl ? null : runningHostSession(config);
  if (live) return live;
  const running = config.mongodbUrl ? null : readHostFile(dataDir);
  if (running) {
    // A host killed with -9 leaves host.json behind: work on the directory instead of
    // calling an address nobody answers, and say so.
    process.stderr.write(
      `flowhost: the host recorded in ${dataDir}/host.json (pid ${running.pid}) is not running; opening the data directory directly\n`,
    );
    unpublishHost(dataDir);
  }
  // Loaded here, not at the top: only a command that starts its own host pays for it.
  const [{ hostOfBuild }, { resolveBuild }, { DataDirInUseError }] = await Promise.all([
    import('../default-build.js'),
    import('../build/build-plugins.js'),
    import('../store/open-store.js'),
  ]);
  const build = await resolveBuild(
    { ...config, port: 0, host: '127.0.0.1', logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
    declared,
  );
  await checkBuildAgainstLast(config, build);
  let host;
  try {
    host = await hostOfBuild(build);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    // Held, and no address when this command looked: a host is starting on the directory.
    const started = readHostFile(dataDir) ?? (await waitForStartingHost(dataDir));
    return httpSession('host', `${started.url}${config.apiPrefix}`, config.coreNamespace, started.token, async () => undefined);
  }
  const url = await host.start();
  const info = readHostFile(dataDir);
  if (!info) {
    await host.stop();
    throw new CliError('The in-process host published no local credential');
  }
  return httpSession('local', `${url}${host.config.apiPrefix}`, host.config.coreNamespace, info.token, () => host.stop());
}

/** A session with the host running on the data directory, or null when none runs. */
export function runningHostSession(config: HostConfig): ApiSession | null {
  const running = readHostFile(resolve(config.dataDir));
  if (!running || !hostProcessAlive(running)) return null;
  return httpSession('host', `${running.url}${config.apiPrefix}`, config.coreNamespace, running.token, async () => undefined);
}

/**
 * A command starting its own host refuses a build other than the one last served on the
 * directory: loading a plugin the store never had would create its collections and jobs
 * (the stock CLI on a team's data directory added billing's jobs to Agenda).
 */
async function checkBuildAgainstLast(config: HostConfig, build: ResolvedBuild): Promise<void> {
  const dataDir = resolve(config.dataDir);
  const recorded =
    (config.mongodbUrl ? await mongoBuildRecord(config.mongodbUrl) : null) ??
    (config.dataDir === ':memory:' ? null : readBuildRecord(dataDir));
  if (!recorded) return;
  // Installed plugins (`flowhost plugins install`) are the data directory's own: every
  // command resolves them from its plugins folder, so they are no difference of builds.
  const installed = new Set([...build.installed, ...readInstalled(config.dataDir).plugins.map((p) => p.id)]);
  const { extra, missing } = buildDifference(
    { ...recorded, plugins: recorded.plugins.filter((p) => !installed.has(p.id)) },
    build.entries.map((e) => e.id).filter((id) => !installed.has(id)),
  );
  if (extra.length === 0 && missing.length === 0) return;
  const differs = [
    extra.length ? `would load ${extra.join(', ')}, which it did not run` : '',
    missing.length ? `lacks ${missing.join(', ')}, which it ran` : '',
  ]
    .filter(Boolean)
    .join(', and ');
  throw new CliError(
    `${config.mongodbUrl ? 'The database' : `The data directory ${dataDir}`} was last served by another build: ${build.describe} ${differs}. ` +
      'Nothing was started or changed. Give this command the build the host runs: --build <file> or FLOWHOST_BUILD (a flowhost.build.json), ' +
      'or start that host and run the command again.',
    'build_mismatch',
  );
}

/** The build recorded in a MongoDB store: hosts and commands sharing it may have other data directories. */
async function mongoBuildRecord(url: string): Promise<BuildRecord | null> {
  const { openMongoStore } = await import('../store/mongodb/index.js');
  const store = await openMongoStore({ url });
  try {
    return await readStoredBuildRecord(store);
  } finally {
    await store.close();
  }
}

type CallOptions = { query?: Record<string, string | number | boolean | undefined>; body?: unknown; headers?: Record<string, string> };

function httpSession(
  via: 'host' | 'local',
  prefixBase: string,
  coreNamespace: string,
  token: string,
  close: () => Promise<void>,
): ApiSession {
  const session: ApiSession = {
    via,
    call: <T>(method: string, path: string, options: CallOptions = {}) => session.callApi<T>(method, `/${coreNamespace}${path}`, options),
    async callApi<T>(method: string, path: string, options: CallOptions = {}) {
      const { body } = await session.fetchApi<Record<string, unknown>>(method, path, options);
      if (body && typeof body === 'object' && !Array.isArray(body) && body.success === false)
        throw apiError({ message: 'The request failed', ...body }, 200);
      return body as T;
    },
    async fetchApi<T>(method: string, path: string, options: CallOptions = {}) {
      const base = prefixBase;
      const url = new URL(`${base}${path}`);
      for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
      let response: LoopbackAnswer;
      try {
        response = await sendToHost(url, {
          method,
          headers: {
            ...(options.headers ?? {}),
            Authorization: `${LOCAL_SCHEME} ${token}`,
            ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
      } catch (error) {
        throw new CliError(`The host at ${url.origin} did not answer: ${(error as Error).message}`);
      }
      const payload = response.json();
      if (!response.ok) {
        throw apiError(
          payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {},
          response.status,
        );
      }
      return { status: response.status, headers: response.headers, body: payload as T };
    },
    async upload<T>(path: string, file: string, options: { query?: CallOptions['query'] } = {}) {
      let size: number;
      try {
        const info = statSync(file);
        if (!info.isFile()) throw new Error('not a file');
        size = info.size;
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
      }
      const name = basename(file);
      const url = new URL(`${prefixBase}${path}`);
      for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
      const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      const body = createReadStream(file).pipe(progressMeter(size, name));
      let response: LoopbackAnswer;
      try {
        response = await sendToHost(url, {
          method: 'POST',
          headers: {
            Authorization: `${LOCAL_SCHEME} ${token}`,
            'Content-Type': uploadContentType(undefined, name),
            'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
            'Content-Length': String(size),
          },
          body,
        });
      } catch (error) {
        throw new CliError(`The host at ${url.origin} did not take the upload: ${(error as Error).message}`);
      }
      return answer<T>(response);
    },
    close,
  };
  return session;
}
