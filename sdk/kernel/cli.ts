/**
 * CLI nouns a plugin adds to `flowhost`: `flowhost hello greet Ada`. Declared on the
 * plugin definition (not in setup) so the CLI lists them without starting a host. A
 * command reaches the API of the running host, or of a host the command starts for
 * itself, with the CLI's local credential (administrator rights).
 */

export interface CliOption {
  type: 'string' | 'number' | 'boolean';
  describe: string;
  demandOption?: boolean;
  default?: string | number | boolean;
}

export interface CliContext {
  /** `--json` was given: print machine-readable output. */
  readonly json: boolean;
  /** Calls the API; `path` is relative to the API prefix, e.g. '/hello/v1/greetings'. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { query?: Record<string, string | number | boolean | undefined>; body?: unknown },
  ): Promise<T>;
  /**
   * Streams a local file to an upload route (`streamBody`, read with `readUpload`) as the
   * raw body with `Content-Disposition: attachment; filename=...`; progress goes to stderr
   * for large files. `path` is relative to the API prefix, like `call`.
   */
  upload<T = Record<string, unknown>>(
    path: string,
    file: string,
    options?: { query?: Record<string, string | number | boolean | undefined> },
  ): Promise<T>;
  /** Prints `data` as JSON with --json, else `text`. */
  print(data: unknown, text: string): void;
  /**
   * Asks before something is deleted or disconnected, as the built-in commands do: passes
   * with `--yes` (which a `destructive` command gets), asks `<action>? [y/N]` on a terminal,
   * and without one refuses ("add --yes to go ahead"); a refusal ends the command, exit 1.
   * Call it after reading what will go, so a missing item is named before anyone is asked.
   */
  confirm(action: string): Promise<void>;
}

export interface CliCommandDefinition {
  /** yargs command syntax: 'greet <name>' or 'list'. Positionals arrive as strings. */
  command: string;
  describe: string;
  options?: Record<string, CliOption>;
  /** Deletes or disconnects something: the command gets `--yes`, and `run` should call `ctx.confirm` first. */
  destructive?: boolean;
  run(args: Record<string, unknown>, ctx: CliContext): Promise<void> | void;
}

export interface CliNounDefinition {
  /** The first word: `flowhost <noun> <command>`; must not shadow a built-in noun. */
  noun: string;
  describe: string;
  commands: CliCommandDefinition[];
}
