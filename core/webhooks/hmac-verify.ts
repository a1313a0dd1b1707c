/**
 * Verifies an inbound webhook against an HMAC template. The signed payload is built as
 * bytes (template literals + the exact raw body), never from a re-serialized body, and
 * signatures are compared as decoded bytes in constant time. Failure reasons go to the
 * flow's log, so they name headers and values the sender sent but never a secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  DEFAULT_TEMPLATE_MAX_BODY_BYTES,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignedTemplate,
  type ExtractSpec,
  type HmacTemplate,
  type SecretEncoding,
  type SignatureEncoding,
  type TemplatePart,
  type TimestampFormat,
  type ValueLocation,
} from './hmac-template.js';
import { compileExtractPattern } from './extract-pattern.js';

export interface InboundRequest {
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Every value of each query parameter, in the order sent. */
  query: Readonly<Record<string, readonly string[]>>;
  /** The decoded form or JSON body, null when it is neither (a repeated form field is an array). */
  bodyParams: Readonly<Record<string, unknown>> | null;
  /** The full URL as the sender saw it. */
  url: string;
}

export interface HmacSecret {
  id: string;
  value: string;
  expires_at: Date | null;
}

export type HmacResult = { ok: true; secretId: string; eventId: string | null; timestamp: Date | null } | { ok: false; reason: string };

type Failure = { ok: false; reason: string };
const fail = (reason: string): Failure => ({ ok: false, reason });

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/**
 * One value of a parameter: the query string first, then the decoded body. A parameter
 * sent several times with different values is ambiguous — which one did the sender sign?
 * — so it is refused rather than guessed (an attacker could append a second value).
 */
function param(request: InboundRequest, name: string): { value: string | undefined; ambiguous: boolean } {
  const values = Object.hasOwn(request.query, name) ? request.query[name]! : [request.bodyParams?.[name]].flat();
  const texts = values.map(scalar);
  if (texts.length > 1 && texts.some((t) => t !== texts[0])) return { value: undefined, ambiguous: true };
  return { value: texts[0], ambiguous: false };
}

/**
 * The longest signature, timestamp or id value read. Real ones are under 300 characters (a
 * Stripe header during a secret rotation); the bound keeps an extract pattern's work on a
 * stranger's value small (see extract-pattern.ts).
 */
export const MAX_VALUE_CHARS = 1024;
const tooLong = (value: string, what: string, label: string): Failure | null =>
  value.length > MAX_VALUE_CHARS ? fail(`${what} ${label} is longer than ${MAX_VALUE_CHARS} characters`) : null;

function locate(request: InboundRequest, where: ValueLocation): { value: string | undefined; label: string; ambiguous?: boolean } {
  if (where.header !== undefined) return { value: request.headers[where.header.toLowerCase()], label: `header ${where.header}` };
  return { ...param(request, where.param), label: `parameter ${where.param}` };
}

/** Every value `extract` finds in one entry (kv_pairs may repeat a key, as Stripe does with v1). */
function extractFrom(entry: string, spec: ExtractSpec): string[] {
  const value = entry.trim();
  switch (spec.kind) {
    case 'raw':
      return value ? [value] : [];
    case 'prefix':
      return value.startsWith(spec.key!) && value.length > spec.key!.length ? [value.slice(spec.key!.length)] : [];
    case 'kv_pairs': {
      const pairSeparator = spec.pair_separator ?? '=';
      const found: string[] = [];
      for (const pair of value.split(spec.separator!)) {
        const at = pair.indexOf(pairSeparator);
        if (at > 0 && pair.slice(0, at).trim() === spec.key) found.push(pair.slice(at + pairSeparator.length).trim());
      }
      return found.filter(Boolean);
    }
    case 'regex': {
      // Linear time (RE2): the value is a stranger's, and this runs before authentication.
      const hit = compileExtractPattern(spec.key!).firstValue(value);
      return hit ? [hit] : [];
    }
  }
}

function extractAll(value: string, spec: ExtractSpec, entrySeparator?: string): string[] {
  const entries = entrySeparator ? value.split(entrySeparator) : [value];
  return entries.flatMap((entry) => extractFrom(entry, spec));
}

/** Decodes a signature as sent; null when it is not valid in that encoding. */
function decodeSignature(text: string, encoding: SignatureEncoding): Buffer | null {
  switch (encoding) {
    case 'hex':
      return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex') : null;
    case 'base64':
      return /^[A-Za-z0-9+/]+={0,2}$/.test(text) && text.length % 4 === 0 ? Buffer.from(text, 'base64') : null;
    case 'base64url': {
      const bare = text.replace(/={1,2}$/, '');
      const paddedOk = bare === text || text.length % 4 === 0;
      return /^[A-Za-z0-9_-]+$/.test(bare) && bare.length % 4 !== 1 && paddedOk ? Buffer.from(bare, 'base64url') : null;
    }
  }
}

/** The HMAC key of a stored secret; null when it does not decode as the template says. */
function secretKey(value: string, encoding: SecretEncoding | undefined): Buffer | null {
  if (!encoding) return Buffer.from(value, 'utf8');
  const text = encoding.prefix && value.startsWith(encoding.prefix) ? value.slice(encoding.prefix.length) : value;
  if (encoding.encoding === 'utf8') return Buffer.from(text, 'utf8');
  if (encoding.encoding === 'hex') return /^(?:[0-9a-fA-F]{2})+$/.test(text) ? Buffer.from(text, 'hex') : null;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : null;
}

function parseTimestamp(text: string, format: TimestampFormat): Date | null {
  if (format === 'unix') return /^\d{1,12}$/.test(text) ? new Date(Number(text) * 1000) : null;
  if (format === 'unix_ms') return /^\d{1,15}$/.test(text) ? new Date(Number(text)) : null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

// Equal-length buffers are compared with timingSafeEqual; a length mismatch still does one
// comparison of the same cost, so the time taken depends only on the digest length.
function sameBytes(expected: Buffer, given: Buffer): boolean {
  if (given.length !== expected.length) {
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}

/** Reads one value from its location and extracts it; a Failure names what is missing. */
function readValue(request: InboundRequest, where: ValueLocation & { extract?: ExtractSpec }, what: string): string | Failure {
  const { value, label, ambiguous } = locate(request, where);
  if (ambiguous) return fail(`${what} ${label} is sent several times with different values`);
  if (value === undefined || value.trim() === '') return fail(`${what} ${label} missing`);
  const long = tooLong(value, what, label);
  if (long) return long;
  const found = extractAll(value, where.extract ?? { kind: 'raw' });
  return found[0] ?? fail(`${what} ${label} has no value in the expected form`);
}

type SignedParts = { parts: TemplatePart[]; usesId: boolean; bodyOnly: boolean };
/** Parsed signed templates: a flow's template is parsed once, not on every delivery. Bounded (templates are per flow). */
const parsedTemplates = new Map<string, SignedParts>();
const PARSED_TEMPLATES_MAX = 1000;

function signedParts(signedTemplate: string): SignedParts {
  let parsed = parsedTemplates.get(signedTemplate);
  if (!parsed) {
    const { parts } = parseSignedTemplate(signedTemplate);
    parsed = { parts, usesId: parts.some((p) => p.kind === 'id'), bodyOnly: parts.length === 1 && parts[0]!.kind === 'body' };
    if (parsedTemplates.size >= PARSED_TEMPLATES_MAX) parsedTemplates.clear();
    parsedTemplates.set(signedTemplate, parsed);
  }
  return parsed;
}

export function verifyHmac(input: {
  template: HmacTemplate;
  secrets: ReadonlyArray<HmacSecret>;
  request: InboundRequest;
  now: Date;
}): HmacResult {
  const { template, request, now } = input;
  const maxBody = template.max_body_bytes ?? DEFAULT_TEMPLATE_MAX_BODY_BYTES;
  if (maxBody > 0 && request.rawBody.length > maxBody)
    return fail(`body of ${request.rawBody.length} bytes exceeds max_body_bytes ${maxBody}`);

  const active = input.secrets.filter((s) => s.expires_at === null || new Date(s.expires_at).getTime() > now.getTime());
  if (active.length === 0) return fail('no active secret');

  const source = template.signature_source;
  const { value: signatureValue, label: signatureLabel, ambiguous } = locate(request, source);
  if (ambiguous) return fail(`signature ${signatureLabel} is sent several times with different values`);
  if (signatureValue === undefined || signatureValue.trim() === '') return fail(`signature ${signatureLabel} missing`);
  const long = tooLong(signatureValue, 'signature', signatureLabel);
  if (long) return long;
  const candidates = extractAll(signatureValue, source.extract, source.entry_separator);
  if (candidates.length === 0) return fail(`signature ${signatureLabel} has no signature in the expected form`);
  const decoded = candidates.map((c) => decodeSignature(c, source.encoding)).filter((b): b is Buffer => b !== null);
  if (decoded.length === 0) return fail(`signature ${signatureLabel} is not valid ${source.encoding}`);

  let timestampText: string | null = null;
  let timestamp: Date | null = null;
  if (template.timestamp_source) {
    const read = readValue(request, template.timestamp_source, 'timestamp');
    if (typeof read !== 'string') return read;
    timestamp = parseTimestamp(read, template.timestamp_source.format);
    if (!timestamp) return fail(`timestamp ${read} is not a valid ${template.timestamp_source.format} timestamp`);
    timestampText = read;
    const tolerance = template.tolerance_seconds ?? DEFAULT_TOLERANCE_SECONDS;
    const skew = (now.getTime() - timestamp.getTime()) / 1000;
    if (tolerance > 0 && Math.abs(skew) > tolerance)
      return fail(`timestamp ${read} is outside the ${tolerance} s window (${skew > 0 ? 'too old' : 'in the future'})`);
  }

  const { parts, usesId, bodyOnly } = signedParts(template.signed_template);
  let eventId: string | null = null;
  if (template.id_source) {
    const read = readValue(request, template.id_source, 'id');
    // An id the signature does not cover is informative only: its absence is no failure.
    if (typeof read === 'string') eventId = read;
    else if (usesId) return read;
  }

  const chunks: Buffer[] = [];
  for (const part of bodyOnly ? [] : parts) {
    if (part.kind === 'body') chunks.push(request.rawBody);
    else if (part.kind === 'literal') chunks.push(Buffer.from(part.text, 'utf8'));
    else if (part.kind === 'url') chunks.push(Buffer.from(request.url, 'utf8'));
    else if (part.kind === 'timestamp' || part.kind === 'id') {
      const text = part.kind === 'timestamp' ? timestampText : eventId;
      if (text === null) return fail(`signed_template uses {${part.kind}} but the template has no ${part.kind}_source`);
      chunks.push(Buffer.from(text, 'utf8'));
    } else {
      const { value, label, ambiguous: repeated } = locate(request, part.kind === 'header' ? { header: part.name } : { param: part.name });
      if (repeated) return fail(`signed ${label} is sent several times with different values`);
      if (value === undefined) return fail(`signed ${label} missing`);
      chunks.push(Buffer.from(value, 'utf8'));
    }
  }
  // `{body}` alone (GitHub, Shopify and most senders sign the body as it came): no copy.
  const payload = bodyOnly ? request.rawBody : Buffer.concat(chunks);

  // Every active secret is tried against every candidate (no early exit), so timing does
  // not tell which secret or which entry matched.
  let matched: string | null = null;
  let usable = 0;
  for (const secret of active) {
    const key = secretKey(secret.value, template.secret_encoding);
    if (!key) continue;
    usable += 1;
    const expected = createHmac(template.algo, key).update(payload).digest();
    for (const given of decoded) if (sameBytes(expected, given) && matched === null) matched = secret.id;
  }
  if (usable === 0) return fail(`no active secret decodes as ${template.secret_encoding?.encoding ?? 'utf8'}`);
  if (matched === null) return fail('signature does not match any active secret');
  return { ok: true, secretId: matched, eventId, timestamp };
}
