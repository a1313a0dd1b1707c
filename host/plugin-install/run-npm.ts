import { spawn } from 'node:child_process';
import { PluginInstallError } from './install-error.js';

/** What npm prints while it works, a line at a time (the CLI shows it on stderr). */
export type Progress = (line: string) => void;

/**
 * Runs the real npm in the plugins folder: no shell, arguments as a list, so a spec is never
 * read by a shell. Peer dependencies are not installed (`--legacy-peer-deps`): a plugin's
 * peer `flowhost` is the host's own package, linked in by the caller after npm is done.
 * Install scripts never run unless asked: a plugin needing a native build says so.
 */
export function runNpm(
  folder: string,
  args: readonly string[],
  options: { progress?: Progress; scripts?: boolean; npm?: string } = {},
): Promise<void> {
  const common = ['--no-audit', '--no-fund', '--legacy-peer-deps', '--prefer-offline', ...(options.scripts ? [] : ['--ignore-scripts'])];
  const command = options.npm ?? process.env.FLOWHOST_NPM ?? 'npm';
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, ...common], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'http' },
    });
    const tail: string[] = [];
    const lines = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        options.progress?.(line);
      }
    };
    child.stdout.on('data', lines);
    child.stderr.on('data', lines);
    child.on('error', (error) => {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new PluginInstallError(
          'plugin_install_unavailable',
          missing
            ? `npm was not found (looked for '${command}' on PATH; FLOWHOST_NPM names another): plugins are installed with npm`
            : `npm could not be started: ${error.message}`,
        ),
      );
    });
    child.on('close', (status) => {
      if (status === 0) return resolve();
      const said = tail.filter((line) => /ERR!|error/i.test(line)).slice(-8);
      reject(
        new PluginInstallError(
          'plugin_install_failed',
          `npm ${args.join(' ')} failed (exit ${status}): ${(said.length ? said : tail.slice(-5)).join(' | ')}`,
        ),
      );
    });
  });
}
