/**
 * The OpenAPI document a running host serves, and the tools that read it as outsiders do:
 * Redocly CLI's `lint` (a real validator, run as a child process exactly as a user would).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DENY_NETWORK_MARKER } from './deny-network-marker.js';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
};

/** GET {prefix}/openapi.json from a live host, parsed, plus the exact text served. */
export async function servedOpenApi(url: string, prefix = '/api'): Promise<{ doc: OpenApiDocument; text: string }> {
  const res = await fetch(`${url}${prefix}/openapi.json`);
  if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
  const text = await res.text();
  return { doc: JSON.parse(text) as OpenApiDocument, text };
}

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

export interface RedoclyResult {
  problems: RedoclyProblem[];
  /** The stderr lines where the child tried to reach the network (none expected). */
  networkAttempts: string[];
}

/**
 * `redocly lint <file> --config <repo>/redocly.yaml --format=json`, offline: telemetry and
 * the update check are off by Redocly's own switches (REDOCLY_TELEMETRY=off,
 * REDOCLY_SUPPRESS_UPDATE_NOTICE=true), and a preload refuses any connection the CLI would
 * still try, reporting it, so an online-only behaviour fails the test instead of hiding.
 */
export async function redoclyLint(file: string): Promise<RedoclyResult> {
  const require = createRequire(import.meta.url);
  const cliPackage = require.resolve('@redocly/cli/package.json');
  const cli = join(dirname(cliPackage), (require(cliPackage) as { bin: { redocly: string } }).bin.redocly);
  const preload = new URL('./deny-network.js', import.meta.url).href;
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // Exit status 1 means "problems found": the JSON on stdout says which, so it is read either way.
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', preload, cli, 'lint', file, '--config', join(repoRoot, 'redocly.yaml'), '--format=json'],
      { env, cwd: dirname(file), maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => {
        if (error && !out.trim().startsWith('{')) reject(new Error(`redocly lint failed: ${error.message}\n${err}`));
        else resolve({ stdout: out, stderr: err });
      },
    );
  });
  const report = JSON.parse(stdout) as { problems: RedoclyProblem[] };
  return { problems: report.problems, networkAttempts: stderr.split('\n').filter((line) => line.includes(DENY_NETWORK_MARKER)) };
}
