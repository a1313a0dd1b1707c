/**
 * The HMAC template language of the webhook trigger: where the signature, timestamp and
 * event id sit in a request, what text is signed, and how. Templates are validated once,
 * when saved (schema, extract patterns, placeholders), so verification never meets a
 * template it cannot run.
 */
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../kernel/json-schema.js';
import { createAjv, describeErrors } from '../kernel/validator.js';
import { builtFile } from '../kernel/package-root.js';
import { compileExtractPattern } from './extract-pattern.js';

export type HmacAlgo = 'sha1' | 'sha256' | 'sha512';
export type SignatureEncoding = 'hex' | 'base64' | 'base64url';
export type TimestampFormat = 'unix' | 'unix_ms' | 'iso8601';

/** How one value is taken out of a header or parameter. */
export interface ExtractSpec {
  kind: 'raw' | 'prefix' | 'kv_pairs' | 'regex';
  /** prefix: the text that must start the value; kv_pairs: the key; regex: the pattern. */
  key?: string;
  /** kv_pairs: what separates pairs, e.g. ','. */
  separator?: string;
  /** kv_pairs: what separates a key from its value (default '='). */
  pair_separator?: string;
}

/** A header or a parameter (query first, then body); exactly one of the two. */
export type ValueLocation = { header: string; param?: never } | { param: string; header?: never };

export type SignatureSource = ValueLocation & {
  extract: ExtractSpec;
  encoding: SignatureEncoding;
  /**
   * When set, the value is split on this text and every entry is extracted and checked on
   * its own (Standard Webhooks sends several space-separated `v1,<sig>` entries).
   */
  entry_separator?: string;
};

export type TimestampSource = ValueLocation & { extract?: ExtractSpec; format: TimestampFormat };

export type IdSource = ValueLocation & { extract?: ExtractSpec };

/**
 * How a stored secret becomes the HMAC key: as its UTF-8 bytes (default), or decoded, after
 * removing an optional prefix (Standard Webhooks: `whsec_` + base64 of the key).
 */
export interface SecretEncoding {
  encoding: 'utf8' | 'base64' | 'hex';
  prefix?: string;
}

// A type, not an interface: so a preset's typed template is also a plain record (the
// registries hold templates as data; an interface would lack the implicit index signature).
export type HmacTemplate = {
  mode: 'hmac';
  algo: HmacAlgo;
  signed_template: string;
  signature_source: SignatureSource;
  timestamp_source?: TimestampSource;
  id_source?: IdSource;
  secret_encoding?: SecretEncoding;
  /** Replay window in seconds; 0 (or no timestamp_source) disables replay protection. */
  tolerance_seconds?: number;
  /** 413 past this many raw body bytes; 0 means unlimited. */
  max_body_bytes?: number;
};

export const DEFAULT_TOLERANCE_SECONDS = 300;
export const DEFAULT_TEMPLATE_MAX_BODY_BYTES = 1048576;

const name = { type: 'string', minLength: 1 } as const;

const extractSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kind'],
  properties: {
    kind: { enum: ['raw', 'prefix', 'kv_pairs', 'regex'] },
    key: name,
    separator: name,
    pair_separator: { ...name, default: '=' },
  },
  allOf: [
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    { if: { properties: { kind: { enum: ['prefix', 'kv_pairs', 'regex'] } } }, then: { required: ['key'] } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
    { if: { properties: { kind: { const: 'kv_pairs' } } }, then: { required: ['separator'] } },
  ],
};

// Exactly one of header / param names where a value sits.
const location = {
  header: name,
  param: name,
} as const;
const oneLocation = [
  { required: ['header'], not: { required: ['param'] } },
  { required: ['param'], not: { required: ['header'] } },
];

export const hmacTemplateSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'algo', 'signed_template', 'signature_source'],
  properties: {
    mode: { const: 'hmac' },
    algo: { enum: ['sha1', 'sha256', 'sha512'] },
    signed_template: name,
    signature_source: {
      type: 'object',
      additionalProperties: false,
      required: ['extract', 'encoding'],
      oneOf: oneLocation,
      properties: { ...location, extract: extractSchema, encoding: { enum: ['hex', 'base64', 'base64url'] }, entry_separator: name },
    },
    timestamp_source: {
      type: 'object',
      additionalProperties: false,
      required: ['format'],
      oneOf: oneLocation,
      properties: { ...location, extract: extractSchema, format: { enum: ['unix', 'unix_ms', 'iso8601'] } },
    },
    id_source: {
      type: 'object',
      additionalProperties: false,
      oneOf: oneLocation,
      properties: { ...location, extract: extractSchema },
    },
    secret_encoding: {
      type: 'object',
      additionalProperties: false,
      required: ['encoding'],
      properties: { encoding: { enum: ['utf8', 'base64', 'hex'] }, prefix: name },
    },
    tolerance_seconds: { type: 'integer', minimum: 0, default: DEFAULT_TOLERANCE_SECONDS },
    max_body_bytes: { type: 'integer', minimum: 0, default: DEFAULT_TEMPLATE_MAX_BODY_BYTES },
  },
};

// Compiled once per build (scripts/compile-validators.mjs writes it beside this module, and
// it is found from the package root, as the bundle moves this module): the
// presets are checked at start-up, and compiling this schema was a twentieth of it. A tree
// built by tsc alone compiles it here on first use instead.
let validateTemplate: ValidateFunction | undefined;
const validatorOfTemplates = (): ValidateFunction => {
  if (validateTemplate) return validateTemplate;
  try {
    validateTemplate = createRequire(import.meta.url)(builtFile('sdk/webhooks/hmac-template-validator.cjs')) as ValidateFunction;
  } catch {
    validateTemplate = createAjv({ validateSchema: false }).compile(hmacTemplateSchema as object);
  }
  return validateTemplate;
};

/** One piece of a parsed signed_template. */
export type TemplatePart =
  | { kind: 'literal'; text: string }
  | { kind: 'body' }
  | { kind: 'timestamp' }
  | { kind: 'id' }
  | { kind: 'url' }
  | { kind: 'header' | 'param'; name: string };

/** Splits a signed_template into literals and placeholders; unknown placeholders are problems. */
export function parseSignedTemplate(template: string): { parts: TemplatePart[]; problems: string[] } {
  const parts: TemplatePart[] = [];
  const problems: string[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^{}]*)\}/g)) {
    if (match.index > last) parts.push({ kind: 'literal', text: template.slice(last, match.index) });
    last = match.index + match[0].length;
    const inner = match[1]!;
    const named = /^(header|param):(.+)$/.exec(inner);
    if (inner === 'body' || inner === 'timestamp' || inner === 'id' || inner === 'url') parts.push({ kind: inner });
    else if (named) parts.push({ kind: named[1] as 'header' | 'param', name: named[2]! });
    else problems.push(`signed_template has an unknown placeholder {${inner}}`);
  }
  if (last < template.length) parts.push({ kind: 'literal', text: template.slice(last) });
  return { parts, problems };
}

/**
 * Every problem of a template, as human messages; empty when it can be saved. The template
 * is stored as sent: the schema's defaults are applied to a copy only (verification reads
 * each default where it is used), so a saved template does not grow `pair_separator` on
 * every extract.
 */
export function checkTemplate(template: unknown): string[] {
  if (!template || typeof template !== 'object' || Array.isArray(template)) return ['the template must be an object'];
  const validate = validatorOfTemplates();
  const problems = validate(structuredClone(template)) ? [] : describeErrors(validate.errors).map((issue) => issue.message);
  const t = template as Partial<Record<'signature_source' | 'timestamp_source' | 'id_source', { extract?: unknown }>> & {
    signed_template?: unknown;
  };
  for (const field of ['signature_source', 'timestamp_source', 'id_source'] as const) {
    const extract = t[field]?.extract as Partial<ExtractSpec> | undefined;
    if (extract?.kind !== 'regex' || typeof extract.key !== 'string') continue;
    try {
      compileExtractPattern(extract.key);
    } catch (error) {
      problems.push(`${field}.extract.key is not a pattern the host can run: ${(error as Error).message}`);
    }
  }
  if (typeof t.signed_template === 'string') {
    const { parts, problems: placeholderProblems } = parseSignedTemplate(t.signed_template);
    problems.push(...placeholderProblems);
    const uses = (kind: TemplatePart['kind']) => parts.some((p) => p.kind === kind);
    if (uses('timestamp') && !t.timestamp_source)
      problems.push('signed_template uses {timestamp} but the template has no timestamp_source');
    if (uses('id') && !t.id_source) problems.push('signed_template uses {id} but the template has no id_source');
  }
  return problems;
}
