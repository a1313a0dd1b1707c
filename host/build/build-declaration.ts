import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config/load-config.js';

/**
 * A build declared once, read by `flowhost serve` and every CLI command alike:
 *   { "builtins": "default" | { "exclude": [ids] } | { "only": [ids] },
 *     "plugins": [optional built-in ids, package names or paths],
 *     "settings": { pluginId: { ... } } }
 * found by `--build <file>`, FLOWHOST_BUILD, or ./flowhost.build.json.
 */
export interface BuildDeclaration {
  builtins: 'default' | { exclude: string[] } | { only: string[] };
  plugins: string[];
  settings: Record<string, Record<string, unknown>>;
}

/** The declaration a command uses and where it came from (null: the stock build). */
export interface DeclaredBuild {
  declaration: BuildDeclaration | null;
  /** The file's absolute path, or null for the stock build (default built-ins + FLOWHOST_PLUGINS). */
  source: string | null;
}

export const BUILD_FILE = 'flowhost.build.json';

/** `--build <file>` wins over FLOWHOST_BUILD, which wins over ./flowhost.build.json when present. */
export function findBuild(file: string | undefined, env: NodeJS.ProcessEnv = process.env): DeclaredBuild {
  const named = file ?? (env.FLOWHOST_BUILD || undefined);
  const path = resolve(named ?? BUILD_FILE);
  if (!existsSync(path)) {
    if (named) throw new ConfigError(`Build declaration ${path} does not exist (from ${file ? '--build' : 'FLOWHOST_BUILD'})`);
    return { declaration: null, source: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Build declaration ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return { declaration: checkDeclaration(parsed, path), source: path };
}

const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string' && item.length > 0);

/** The shape checked field by field, so the refusal names the field (`builtins.only[2]`...). */
export function checkDeclaration(value: unknown, source: string): BuildDeclaration {
  const refuse = (field: string, problem: string) => new ConfigError(`Build declaration ${source}: '${field}' ${problem}`);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw refuse('(top level)', 'must be an object');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw))
    if (!['builtins', 'plugins', 'settings', '$comment'].includes(key))
      throw refuse(key, 'is not a field of a build (builtins, plugins, settings)');
  const builtins = raw.builtins ?? 'default';
  if (builtins !== 'default') {
    const shape = 'must be "default", { "exclude": [ids] } or { "only": [ids] }';
    if (!builtins || typeof builtins !== 'object' || Array.isArray(builtins)) throw refuse('builtins', shape);
    const keys = Object.keys(builtins);
    if (keys.length !== 1 || !['exclude', 'only'].includes(keys[0]!)) throw refuse('builtins', shape);
    const ids = (builtins as Record<string, unknown>)[keys[0]!];
    if (!isIdList(ids)) throw refuse(`builtins.${keys[0]}`, 'must be a list of built-in ids');
  }
  const plugins = raw.plugins ?? [];
  if (!isIdList(plugins)) throw refuse('plugins', 'must be a list of optional built-in ids, package names or paths');
  const settings = raw.settings ?? {};
  if (!settings || typeof settings !== 'object' || Array.isArray(settings))
    throw refuse('settings', 'must be an object of plugin id to settings');
  for (const [id, value] of Object.entries(settings))
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw refuse(`settings.${id}`, 'must be an object');
  return {
    builtins: builtins as BuildDeclaration['builtins'],
    plugins,
    settings: settings as BuildDeclaration['settings'],
  };
}
