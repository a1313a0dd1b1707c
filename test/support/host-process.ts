// Runs the real `flowhost` CLI / server as child processes for end-to-end tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
// The command users run (bin, npm start): the bundle of scripts/bundle.mjs, so every suite that
// spawns `flowhost` drives what ships. `node dist/host/cli/main.js` is the same CLI unbundled.
export const cliPath = join(repoRoot, 'dist/bundle/main.js');
export const modularCliPath = join(repoRoot, 'dist/host/cli/main.js');

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    FLOWHOST_LOG_LEVEL: 'info',
    FLOWHOST_CHECK_RESPONSES: '1',
    ...extra,
  };
  return env;
}

export interface RunningHost {
  proc: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `flowhost serve` on a free port and waits until it has published host.json. */
export async function startHostProcess(dataDir: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunningHost> {
  const proc = spawn(process.execPath, [cliPath, 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: repoRoot,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + timeoutMs;
  const hostFile = join(dataDir, 'host.json');
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`flowhost serve exited with ${proc.exitCode}:\n${out}`);
    if (existsSync(hostFile)) {
      try {
        const info = JSON.parse(readFileSync(hostFile, 'utf8')) as { url: string; pid: number };
        if (info.pid === proc.pid) return { proc, url: info.url, output: () => out };
      } catch {
        // being written; try again
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  proc.kill('SIGKILL');
  throw new Error(`flowhost serve did not publish host.json in ${timeoutMs} ms:\n${out}`);
}

export function waitForExit(proc: ChildProcess): Promise<number | null> {
  return proc.exitCode !== null ? Promise.resolve(proc.exitCode) : new Promise((r) => proc.once('exit', (code) => r(code)));
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  input?: string,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    env: cleanEnv(env),
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * runCli without blocking this process, for a CLI that calls what this process serves: a
 * host started with startCliHost (the CLI finds it by host.json) or a fake API.
 */
export function runCliAsync(
  args: string[],
  env: Record<string, string> = {},
  input = '',
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

export const basicAuth = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
