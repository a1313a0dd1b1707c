// Compiled validators kept on disk between processes, as ajv's standalone code. Every
// process that builds a host (each `npm start`, each test suite, each CLI command that
// loads plugins) compiled the same route and contribution schemas anew; code generation
// was most of that (measured in docs/performance.md). The cache is keyed by a hash of the
// ajv and ajv-formats versions, the instance's options and the schema text, so a changed
// schema or an upgraded ajv never meets a stale validator; a cache that cannot be read or
// written is no cache (the validator is compiled as before).
//
// The directory is `node_modules/.cache/flowhost/validators` of this package (the place
// tools keep such caches), so the code it runs is as trusted as the installed packages.
// FLOWHOST_VALIDATOR_CACHE=off turns it off.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import { packageRoot } from './package-root.js';

const require = createRequire(import.meta.url);

/** The code ajv-formats' "full" formats are reached by in standalone validators. */
export const FORMATS_CODE_PATH = 'ajv-formats/dist/formats';

type Standalone = (ajv: Ajv, validate: ValidateFunction) => string;
let standaloneCode: Standalone | undefined;

interface CacheState {
  dir: string;
  /** Versions of what generates the code: part of every key. */
  versions: string;
}

let state: CacheState | null | undefined;

function cacheState(): CacheState | null {
  if (state !== undefined) return state;
  if (process.env.FLOWHOST_VALIDATOR_CACHE === 'off') return (state = null);
  try {
    const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
    state = {
      dir: join(packageRoot(), 'node_modules', '.cache', 'flowhost', 'validators'),
      versions: `ajv@${version('ajv')} ajv-formats@${version('ajv-formats')}`,
    };
  } catch {
    state = null;
  }
  return state;
}

/** Whether instances should keep their generated source (ajv's `code.source`), for the cache. */
export function validatorCacheEnabled(): boolean {
  return cacheState() !== null;
}

/** Runs a standalone validator module's text, resolving its runtime imports from this package. */
function load(code: string): ValidateFunction | null {
  const module = { exports: {} as { default?: ValidateFunction } };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  const validate = module.exports.default ?? (module.exports as unknown as ValidateFunction);
  return typeof validate === 'function' ? validate : null;
}

/** The cache file of a validator (null: the cache is off). */
export function validatorCacheFile(optionsText: string, schemaText: string): string | null {
  const cache = cacheState();
  if (!cache) return null;
  const key = createHash('sha256').update(`${cache.versions}\u0000${optionsText}\u0000${schemaText}`).digest('hex').slice(0, 40);
  return join(cache.dir, `${key}.js`);
}

/**
 * `compile()`'s validator for `schema`, from the disk cache when an earlier process wrote
 * it for the same options and schema text, else compiled and written there for the next.
 */
export function cachedCompile(ajv: Ajv, optionsText: string, schemaText: string, compile: () => ValidateFunction): ValidateFunction {
  const file = validatorCacheFile(optionsText, schemaText);
  if (!file) return compile();
  try {
    const validate = load(readFileSync(file, 'utf8'));
    if (validate) return validate;
  } catch {
    // Absent, unreadable or not a module: compile it.
  }
  const validate = compile();
  try {
    standaloneCode ??= (require('ajv/dist/standalone/index.js') as { default: Standalone }).default;
    const code = standaloneCode(ajv, validate);
    mkdirSync(dirname(file), { recursive: true });
    // Written whole under another name, then renamed: a process reading it never sees half.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // A read-only install, or a schema standalone code cannot express: no cache for it.
  }
  return validate;
}

// Schemas found valid against JSON Schema's meta-schema, by key, in one file beside the
// validators (`valid-schemas.json`). Every boot checks each route's and contribution's
// schema (a broken one is reported naming its plugin); that check was 24 ms of a 700 ms
// `flowhost serve` start, for the same schemas every time. A schema is only ever added
// after ajv found it valid, and the key holds ajv's version and the schema's text.

let validKeys: Set<string> | undefined;
/** A write of the file is due at the end of this turn. */
let saveDue = false;

const validFile = (cache: CacheState) => join(cache.dir, 'valid-schemas.json');
const schemaKey = (cache: CacheState, schemaText: string) =>
  createHash('sha256').update(`${cache.versions}\u0000meta-schema\u0000${schemaText}`).digest('hex').slice(0, 32);

function readKeys(cache: CacheState): Set<string> {
  try {
    const keys: unknown = JSON.parse(readFileSync(validFile(cache), 'utf8'));
    return new Set(Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Whether an earlier check (this process or another) found this schema text valid. */
export function knownValidSchema(schemaText: string): boolean {
  const cache = cacheState();
  if (!cache) return false;
  validKeys ??= readKeys(cache);
  return validKeys.has(schemaKey(cache, schemaText));
}

/** Notes a schema text ajv found valid; the file is written once this turn's checks are done. */
export function rememberValidSchema(schemaText: string): void {
  const cache = cacheState();
  if (!cache) return;
  validKeys ??= readKeys(cache);
  const key = schemaKey(cache, schemaText);
  if (validKeys.has(key)) return;
  validKeys.add(key);
  if (saveDue) return;
  saveDue = true;
  setImmediate(() => saveKeys(cache));
}

/** Resolves once what was noted so far is on disk (for tests). */
export function validSchemasSaved(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function saveKeys(cache: CacheState): void {
  saveDue = false;
  try {
    // Merged with what other processes wrote meanwhile; a key lost to a race is checked again.
    const keys = new Set([...readKeys(cache), ...(validKeys ?? [])]);
    mkdirSync(cache.dir, { recursive: true });
    const partial = `${validFile(cache)}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify([...keys]));
    renameSync(partial, validFile(cache));
  } catch {
    // A read-only install: each process checks its schemas, as without the cache.
  }
}
