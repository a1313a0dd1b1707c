// Debian's nginx in front of a test host, with the configuration docs/nginx/flowhost.conf
// documents (only the upstream port and the listen address are changed). Missing nginx is a
// failure with the command that installs it, never a skip.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './host-process.js';

export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export interface RunningNginx {
  url: string;
  port: number;
  stop(): Promise<void>;
  errorLog(): string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export async function startNginx(upstream: URL): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}: apt-get install -y nginx (.ci/run installs it)`);
  const prefix = mkdtempSync(join(tmpdir(), 'flowhost-nginx-'));
  for (const dir of ['logs', 'tmp']) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const site = readFileSync(join(repoRoot, 'docs/nginx/flowhost.conf'), 'utf8')
    .replace('server 127.0.0.1:8080;', `server ${upstream.host};`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  if (site.includes(':8080;') || !site.includes(`listen 127.0.0.1:${port};`))
    throw new Error('docs/nginx/flowhost.conf no longer has the lines this test adapts');
  writeFileSync(join(prefix, 'flowhost.conf'), site);
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      // One process, in the foreground, with every path in the prefix: no root, no /var.
      'master_process off;',
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${join(prefix, 'logs/error.log')} info;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log ${join(prefix, 'logs/access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(prefix, 'tmp', kind)};`),
      `  include ${join(prefix, 'flowhost.conf')};`,
      '}',
    ].join('\n'),
  );
  const proc: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}: ${output}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port,
    errorLog: () => (existsSync(join(prefix, 'logs/error.log')) ? readFileSync(join(prefix, 'logs/error.log'), 'utf8') : ''),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGQUIT');
        setTimeout(() => proc.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
