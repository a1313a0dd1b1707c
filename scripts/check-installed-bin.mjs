// The `flowhost` command an installed package put in node_modules/.bin, run in the package
// that installed it as an author's development loop runs it (docs/plugin-authoring.md, §1
// and §9): `flowhost --help`; `flowhost serve` with the author's build named by path, on the
// embedded store in a scratch data directory and a free loopback port, up to its first 200
// (GET /healthz) without a network; the plugin's own CLI noun through that host; then SIGTERM
// and a clean exit. scripts/check-example-outside.mjs calls it after installing the packed
// tarball; a missing file of the package (issue 54: the bundle's chunks were left out)
// fails here with the command's own output.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Preloaded into every process it starts; its reports start with MARKER (not imported from
// it: importing it would take this process offline too).
const offlinePreload = new URL('./offline-preload.mjs', import.meta.url).href;
const MARKER = 'offline-preload: refused';
const START_MS = 60_000;
const STOP_MS = 30_000;

// Only what a shell gives: no MONGODB_URL (the embedded store), no FLOWHOST_* of the caller;
// and every process offline.
const baseEnv = (extra) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  FLOWHOST_LOG_LEVEL: 'info',
  NODE_OPTIONS: `--import=${offlinePreload}`,
  ...extra,
});

function fail(what, output) {
  throw new Error(`installed flowhost: ${what}\n${output}`);
}

function run(pkg, args, env) {
  const bin = join(pkg, 'node_modules/.bin/flowhost');
  const result = spawnSync(bin, args, { cwd: pkg, env: baseEnv(env), encoding: 'utf8', timeout: 60_000 });
  if (result.error) fail(`"flowhost ${args.join(' ')}" did not run: ${result.error.message}`, '');
  if (result.stderr.includes(MARKER)) fail(`"flowhost ${args.join(' ')}" tried the network`, result.stderr);
  return result;
}

function checkHelp(pkg) {
  const { status, stdout, stderr } = run(pkg, ['--help'], {});
  if (status !== 0) fail(`"flowhost --help" exited ${status}`, stdout + stderr);
  for (const line of ['Commands:', 'flowhost serve', 'flowhost flows <verb>', 'flowhost plugins <verb>']) {
    if (!stdout.includes(line)) fail(`"flowhost --help" does not list "${line}"`, stdout + stderr);
  }
}

async function until(deadline, what, output, probe) {
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  fail(`${what} within ${START_MS / 1000} s of its start`, output());
}

function startServe(pkg, dataDir, env) {
  const bin = join(pkg, 'node_modules/.bin/flowhost');
  const args = ['serve', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0'];
  const proc = spawn(bin, args, {
    cwd: pkg,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  // 'close': exited, and its output read to the end.
  const exited = new Promise((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
  return { proc, exited, output: () => out };
}

// host.json in the data directory names the address serve bound (port 0: any free one).
function hostUrl(host, dataDir) {
  if (host.proc.exitCode !== null) fail(`"flowhost serve" exited ${host.proc.exitCode} before answering`, host.output());
  const file = join(dataDir, 'host.json');
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8'));
    return info.pid === host.proc.pid ? info.url : undefined;
  } catch {
    return undefined; // being written
  }
}

async function health(url) {
  try {
    const res = await fetch(`${url}/healthz`);
    return res.status === 200 ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}

async function stop(host) {
  host.proc.kill('SIGTERM');
  const timer = setTimeout(() => host.proc.kill('SIGKILL'), STOP_MS);
  const { code, signal } = await host.exited;
  clearTimeout(timer);
  if (code !== 0)
    fail(`"flowhost serve" ended with ${signal ?? `exit ${code}`} after SIGTERM (SIGKILL after ${STOP_MS / 1000} s)`, host.output());
}

/**
 * Runs the checks in `pkg` (which has flowhost installed) with `dataDir` as the host's data
 * directory; `plugin` is the author's build by path (FLOWHOST_PLUGINS), and `command` one of
 * its CLI commands, whose output must include `expect`, run through the host: the host's log
 * must then include `served`. Resolves to what each step took; throws with the failing
 * command's output.
 */
export async function checkInstalledBin(pkg, { dataDir, plugin, command, expect, served }) {
  const timings = [];
  const timed = async (label, fn) => {
    const started = Date.now();
    const value = await fn();
    timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return value;
  };
  await timed('--help', () => checkHelp(pkg));
  const env = { FLOWHOST_PLUGINS: plugin };
  const host = startServe(pkg, dataDir, env);
  let answered = false;
  try {
    await timed('serve to 200', async () => {
      const deadline = Date.now() + START_MS;
      const url = await until(deadline, '"flowhost serve" published no host.json', host.output, () => hostUrl(host, dataDir));
      const body = await until(deadline, `GET ${url}/healthz answered no 200`, host.output, () => health(url));
      if (body.store?.kind !== 'embedded') fail(`GET /healthz names the ${body.store?.kind} store, not the embedded one`, host.output());
    });
    await timed(command.join(' '), () => {
      const { status, stdout, stderr } = run(pkg, [...command, '--data-dir', dataDir], env);
      if (status !== 0 || !stdout.includes(expect)) {
        fail(`"flowhost ${command.join(' ')}" through the host exited ${status} without "${expect}"`, stdout + stderr + host.output());
      }
    });
    answered = true;
  } finally {
    const running = host.proc.exitCode === null && host.proc.signalCode === null;
    // After a failed step, the host goes at once: its output is already in the error.
    if (running && answered) await timed('stop', () => stop(host));
    else if (running) {
      host.proc.kill('SIGKILL');
      await host.exited;
    }
  }
  if (host.output().includes(MARKER)) fail('"flowhost serve" tried the network', host.output());
  if (!host.output().includes(served))
    fail(`the host's log has no ${served}: "flowhost ${command.join(' ')}" did not go through it`, host.output());
  return timings;
}
