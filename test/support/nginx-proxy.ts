// Debian's nginx in front of a test host, with the configuration docs/nginx/flowhost.conf
// documents (only the upstream port, the listen addresses and the certificate paths are
// changed). The certificate is made here, self-signed for the file's own server name, with
// Debian's openssl (test-only: a fresh key per run, in nginx's temporary prefix). Missing
// nginx or openssl is a failure with the command that installs it, never a skip.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './host-process.js';

export const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
export const OPENSSL = process.env.OPENSSL_BIN ?? '/usr/bin/openssl';
/** The name the shipped file serves; requests carry it as Host (and SNI) to 127.0.0.1. */
export const SERVER_NAME = 'flows.example.org';

export interface RunningNginx {
  /** The plain-http port (the file's 80): it redirects to https. */
  port: number;
  /** The https port (the file's 443), which proxies to Flowhost. */
  tlsPort: number;
  /** The self-signed certificate, to trust in the test's TLS clients. */
  ca: string;
  stop(): Promise<void>;
  errorLog(): string;
  accessLog(): string;
}

/** A self-signed certificate and key for SERVER_NAME, valid two days. */
function selfSigned(prefix: string): { cert: string; key: string } {
  if (!existsSync(OPENSSL)) throw new Error(`openssl is not installed at ${OPENSSL}: apt-get install -y openssl`);
  const cert = join(prefix, 'test-only-cert.pem');
  const key = join(prefix, 'test-only-key.pem');
  execFileSync(
    OPENSSL,
    [
      ...'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2'.split(' '),
      ...['-subj', `/CN=${SERVER_NAME}`, '-addext', `subjectAltName=DNS:${SERVER_NAME}`, '-keyout', key, '-out', cert],
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}

/** Whether something accepts connections on the port yet. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
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
  const tlsPort = await freePort();
  const { cert, key } = selfSigned(prefix);
  const adapted: Array<[string, string]> = [
    ['server 127.0.0.1:8080;', `server ${upstream.host};`],
    ['listen 80 default_server;', `listen 127.0.0.1:${port} default_server;`],
    ['listen 443 ssl default_server;', `listen 127.0.0.1:${tlsPort} ssl default_server;`],
    ['listen 80;', `listen 127.0.0.1:${port};`],
    ['listen 443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`],
    [`ssl_certificate /etc/letsencrypt/live/${SERVER_NAME}/fullchain.pem;`, `ssl_certificate ${cert};`],
    [`ssl_certificate_key /etc/letsencrypt/live/${SERVER_NAME}/privkey.pem;`, `ssl_certificate_key ${key};`],
    ['access_log /var/log/nginx/access.log ', `access_log ${join(prefix, 'logs/access.log')} `],
  ];
  let site = readFileSync(join(repoRoot, 'docs/nginx/flowhost.conf'), 'utf8');
  for (const [line, replacement] of adapted) {
    if (!site.includes(line)) throw new Error(`docs/nginx/flowhost.conf no longer has the line this test adapts: ${line}`);
    site = site.replace(line, replacement);
  }
  const directives = site
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
  if (/listen (80|443)\b|:8080;|\/etc\/|\/var\//.test(directives))
    throw new Error('docs/nginx/flowhost.conf has a port or path this test does not adapt');
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
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}: ${output}`);
    if ((await accepts(port)) && (await accepts(tlsPort))) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} and ${tlsPort}: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    tlsPort,
    ca: readFileSync(cert, 'utf8'),
    errorLog: () => (existsSync(join(prefix, 'logs/error.log')) ? readFileSync(join(prefix, 'logs/error.log'), 'utf8') : ''),
    accessLog: () => (existsSync(join(prefix, 'logs/access.log')) ? readFileSync(join(prefix, 'logs/access.log'), 'utf8') : ''),
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGQUIT');
        setTimeout(() => proc.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
