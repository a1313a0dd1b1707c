/**
 * Secret settings on the command line without putting them on it: `--set-secret <name>`
 * reads the value from standard input, `--set-secret <name>=@<file>` from a file. A value on
 * argv sits in `ps` for every local user and in shell history, so `--set` refuses a
 * secret-named setting and says how to give it instead.
 */
import { readFileSync } from 'node:fs';
import { isSecretKey } from '../../core/security/mask.js';
import { CliError } from './admin-client.js';

const asList = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

/** Only the trailing line end a pipe or an editor adds: a secret's own spaces stay. */
const withoutLineEnd = (text: string) => text.replace(/\r?\n$/, '');

/**
 * Each `--set-secret` as [name, value]. At most one reads standard input (it is read once);
 * the value must not be empty; `name=value` is refused without echoing the value.
 */
export function secretSettings(given: unknown, example: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let fromStdin: string | undefined;
  for (const raw of asList(given)) {
    const eq = raw.indexOf('=');
    const name = (eq === -1 ? raw : raw.slice(0, eq)).trim();
    if (!name) throw new CliError(`--set-secret needs a setting name (e.g. ${example})`);
    let value: string;
    if (eq === -1) {
      if (fromStdin !== undefined)
        throw new CliError(
          `--set-secret ${name}: standard input is already read for --set-secret ${fromStdin}; give this one from a file (${name}=@<file>)`,
        );
      fromStdin = name;
      value = withoutLineEnd(readFileSync(0, 'utf8'));
    } else {
      const rest = raw.slice(eq + 1);
      if (!rest.startsWith('@'))
        throw new CliError(
          `--set-secret ${name}=…: the value goes on standard input (--set-secret ${name}) or in a file (--set-secret ${name}=@<file>), never on the command line`,
        );
      const file = rest.slice(1);
      try {
        value = withoutLineEnd(readFileSync(file, 'utf8'));
      } catch (error) {
        throw new CliError(
          `--set-secret ${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      }
    }
    if (value === '')
      throw new CliError(
        `--set-secret ${name}: the value is empty (${eq === -1 ? 'nothing on standard input' : `${raw.slice(eq + 2)} is empty`})`,
      );
    out.push([name, value]);
  }
  return out;
}

/**
 * The value of a secret option such as `--secret` or `--password`: `-` reads standard input,
 * `@<file>` a file (one trailing line end dropped either way); a literal value is refused
 * without echoing it, since the command line sits in `ps` and shell history. Undefined when
 * the option is not given. `fromStdin` is a boolean flag that means `-` (`--password-stdin`).
 */
export function secretOption(option: string, given: unknown, fromStdin = false): string | undefined {
  if (given === undefined && !fromStdin) return undefined;
  const how = `give it on standard input (--${option} -) or from a file (--${option} @<file>)`;
  const raw = given === undefined ? '-' : String(given);
  let value: string;
  if (raw === '-') {
    // No echo-free prompt here (as for --set-secret): on a terminal, at least say what is read.
    if (process.stdin.isTTY) process.stderr.write(`Type the ${option}, then press Enter and Ctrl-D (or use --${option} @<file>):\n`);
    value = withoutLineEnd(readFileSync(0, 'utf8'));
  } else if (raw.startsWith('@')) {
    const file = raw.slice(1);
    try {
      value = withoutLineEnd(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new CliError(`--${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  } else throw new CliError(`--${option}: a secret is never taken on the command line (it is visible in ps and shell history); ${how}`);
  if (value === '')
    throw new CliError(
      `--${option}: the value is empty (${raw === '-' ? 'nothing on standard input' : `${raw.slice(1)} is empty`}); ${how}`,
    );
  return value;
}

/** Refuses `--set <name>=<value>` for a secret-named setting (the last part of a dotted name decides). */
export function refuseSecretOnArgv(name: string): void {
  const last = name.split('.').pop() ?? name;
  if (isSecretKey(last))
    throw new CliError(
      `--set ${name}=…: ${last} is a secret, and the command line is visible in ps and shell history; give it with --set-secret ${name} (the value on standard input) or --set-secret ${name}=@<file>`,
    );
}
