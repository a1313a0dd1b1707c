import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { describeErrors } from '../../core/kernel/validation-issues.js';
import { builtFile } from '../../core/kernel/package-root.js';
import { checkLinkHosts, checkTrustProxy } from '../http/client-address.js';
import { defaultConfig, envKeys, type HostConfig } from './schema.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Path of a JSON config file; default FLOWHOST_CONFIG or ./flowhost.config.json when present. */
  file?: string;
  /** Values that win over env and file (e.g. CLI flags, tests). */
  overrides?: Partial<HostConfig>;
}

/**
 * Config = defaults < flowhost.config.json < environment < overrides, validated with ajv.
 * An invalid value stops start-up with a message naming the key (and the env variable).
 */
export function loadConfig(options: LoadConfigOptions = {}): HostConfig {
  const env = options.env ?? process.env;
  const fromFile = readConfigFile(options.file ?? env.FLOWHOST_CONFIG);
  const fromEnv: Record<string, unknown> = {};
  const envNameOf: Record<string, string> = {};
  for (const [name, { key, type }] of Object.entries(envKeys)) {
    const raw = env[name];
    envNameOf[key] = name;
    if (raw === undefined || raw === '') continue;
    fromEnv[key] = convert(raw, type);
  }
  const merged = { ...defaultConfig, ...fromFile, ...fromEnv, ...(options.overrides ?? {}) } as Record<string, unknown>;
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  if (typeof merged.apiPrefix === 'string') merged.apiPrefix = merged.apiPrefix.replace(/\/+$/, '');
  const validate = configValidator();
  if (!validate(merged)) {
    const issues = describeErrors(validate.errors).map((issue) => {
      const top = issue.field.split('.')[0] ?? issue.field;
      const envName = envNameOf[top];
      // Never echo a value: the key may be a secret.
      return envName && top in fromEnv ? `${issue.message} (from ${envName})` : issue.message;
    });
    throw new ConfigError(`Invalid configuration: ${issues.join('; ')}`);
  }
  const trustProblem = typeof merged.trustProxy === 'string' ? checkTrustProxy(merged.trustProxy) : null;
  if (trustProblem) throw new ConfigError(`Invalid configuration: ${trustProblem}`);
  const config = merged as unknown as HostConfig;
  const linkProblem = checkLinkHosts(config.trustProxy, config.publicUrl, config.allowedHosts);
  if (linkProblem) throw new ConfigError(`Invalid configuration: ${linkProblem}`);
  return config;
}

// Compiled once per build (scripts/compile-validators.mjs writes it beside this module), so
// reading the config loads neither ajv nor the schema compiler: most of a CLI command's start.
let compiledConfig: ValidateFunction | undefined;
function configValidator(): ValidateFunction {
  if (compiledConfig) return compiledConfig;
  try {
    compiledConfig = createRequire(import.meta.url)(builtFile('host/config/config-validator.cjs')) as ValidateFunction;
  } catch (error) {
    throw new ConfigError(`The config validator was not built (${(error as Error).message}); run: npm run build`);
  }
  return compiledConfig;
}

function convert(raw: string, type: 'string' | 'integer' | 'boolean' | 'list'): unknown {
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
    case 'boolean':
      if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
      return raw;
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

function readConfigFile(path: string | undefined): Record<string, unknown> {
  const file = resolve(path ?? 'flowhost.config.json');
  if (!existsSync(file)) {
    if (path) throw new ConfigError(`Config file ${file} does not exist`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the top level must be an object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`Config file ${file} is not valid: ${(error as Error).message}`);
  }
}
