/**
 * Response schemas: the answers a route can give, by status — the ones its author declared
 * (`schema.responses`) plus the errors the dispatcher itself gives before or around the
 * handler (not logged in, forbidden, invalid input, body too large, internal error).
 * Published in openapi.json; in check mode (`checkResponses`, on in every test host) each
 * JSON answer is validated against the schema for its status with every object closed.
 */
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import type { RouteDefinition } from '../../core/kernel/routes.js';
import { errorBody } from '../../core/kernel/response-schemas.js';
import { compileShared, createAjv } from '../../core/kernel/validator.js';

/** The error codes the dispatcher can answer for this route, by status. */
export function dispatcherErrors(definition: RouteDefinition, rest?: 'wordpress'): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (status: number, ...codes: string[]) => (out[status] ??= []).push(...codes.filter((c) => !out[status]!.includes(c)));
  const schema = definition.schema ?? {};
  if (definition.credentials !== 'ignored') {
    // Credentials are read on every route that does not ignore them, public ones too:
    // a wrong Basic password, a throttled login, a cookie with a bad nonce.
    add(401, 'rest_invalid_credentials');
    add(403, 'rest_cookie_invalid_nonce');
    add(429, 'rest_too_many_requests');
  }
  if (definition.permission !== 'public') add(401, 'rest_not_logged_in');
  if (typeof definition.permission === 'object') add(403, 'rest_forbidden');
  const readsBody = definition.method !== 'GET' && !definition.streamBody;
  if (readsBody) add(413, 'rest_payload_too_large');
  // Any body, read by the host or streamed to the route, that stalls or drags past its time.
  if (definition.method !== 'GET') add(408, 'rest_request_timeout');
  if (readsBody && definition.decodeBody !== false) add(400, 'rest_invalid_json');
  if (schema.params || schema.query || schema.body) add(400, 'rest_invalid_param', 'rest_missing_callback_param');
  // The store refuses a value it cannot keep (a last line for free-form fields).
  if (definition.method !== 'GET') add(400, 'rest_invalid_document');
  // Before any route is chosen: a path with an invalid percent-escape, a Host header that
  // is no host name. Any URL of any route can carry either.
  add(400, 'rest_invalid_url', 'rest_bad_request');
  // WordPress's route patterns take only what they can name (`(?P<id>[\d]+)`): a path
  // parameter that fails its schema is a URL no route matches (see runRoute).
  if (rest === 'wordpress' && schema.params) add(404, 'rest_no_route');
  add(500, 'internal_error');
  return out;
}

function codeEnum(schema: JsonSchema): string[] | null {
  const code = (schema.properties as Record<string, JsonSchema> | undefined)?.code;
  const values = code?.enum;
  return Array.isArray(values) && values.every((v) => typeof v === 'string') ? (values as string[]) : null;
}

/**
 * The declared responses with the dispatcher's errors added: an error body the author
 * declared for the same status gets the dispatcher's codes in its enum; any other schema
 * there becomes anyOf [declared, dispatcher error].
 */
export function effectiveResponses(definition: RouteDefinition, rest?: 'wordpress'): Record<number, JsonSchema> {
  const declared = definition.schema?.responses ?? {};
  const out: Record<number, JsonSchema> = {};
  for (const [status, schema] of Object.entries(declared)) out[Number(status)] = schema;
  for (const [key, codes] of Object.entries(dispatcherErrors(definition, rest))) {
    const status = Number(key);
    const own = out[status];
    if (!own) {
      out[status] = errorBody(...codes);
      continue;
    }
    const ownCodes = codeEnum(own);
    if (ownCodes) out[status] = errorBody(...ownCodes, ...codes.filter((c) => !ownCodes.includes(c)));
    else if (own.properties && (own.properties as Record<string, unknown>).code && !ownCodes)
      continue; // any code already
    else out[status] = { anyOf: [own, errorBody(...codes)] };
  }
  return out;
}

const isObjectSchema = (schema: JsonSchema): boolean =>
  schema.type === 'object' ||
  (Array.isArray(schema.type) && schema.type.includes('object')) ||
  (schema.type === undefined && (schema.properties !== undefined || schema.required !== undefined));

/**
 * A copy of `schema` where every object schema that does not say `additionalProperties`
 * is closed (`additionalProperties: false`), in properties, items, anyOf and oneOf. The
 * members of an allOf are not closed themselves (each would refuse the others' fields);
 * what is nested in them is.
 */
export function closeSchema(schema: JsonSchema, inAllOf = false): JsonSchema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = { ...schema };
  const mapAll = (list: unknown, allOf = false) => (Array.isArray(list) ? list.map((s) => closeSchema(s as JsonSchema, allOf)) : list);
  const mapValues = (record: unknown) =>
    record && typeof record === 'object'
      ? Object.fromEntries(Object.entries(record).map(([k, s]) => [k, closeSchema(s as JsonSchema)]))
      : record;
  if (out.properties) out.properties = mapValues(out.properties);
  if (out.patternProperties) out.patternProperties = mapValues(out.patternProperties);
  if (out.$defs) out.$defs = mapValues(out.$defs);
  if (out.definitions) out.definitions = mapValues(out.definitions);
  if (out.items) out.items = Array.isArray(out.items) ? mapAll(out.items) : closeSchema(out.items as JsonSchema);
  if (out.prefixItems) out.prefixItems = mapAll(out.prefixItems);
  if (out.additionalProperties && typeof out.additionalProperties === 'object')
    out.additionalProperties = closeSchema(out.additionalProperties as JsonSchema);
  if (out.anyOf) out.anyOf = mapAll(out.anyOf);
  if (out.oneOf) out.oneOf = mapAll(out.oneOf);
  if (out.allOf) out.allOf = mapAll(out.allOf, true);
  if (!inAllOf && !out.allOf && isObjectSchema(schema) && !('additionalProperties' in schema) && !('unevaluatedProperties' in schema)) {
    out.additionalProperties = false;
  }
  return out;
}

/** A validator per declared status, compiled on first use and kept (see below). */
export interface ResponseValidators {
  /** The validator of this status; undefined when the route declares none for it. */
  get(status: number): ValidateFunction | undefined;
}

/**
 * Validators are shared by schema text (`compileShared`: in the process, and on disk between
 * processes): the same bodies recur on many routes (error bodies, flow views) and in every
 * test host, and compiling each anew would add seconds to every host's start.
 */
const checkAjv = createAjv({ useDefaults: false });

/** Schema texts already checked against the meta-schema (most recur on many routes). */
const checkedSchemas = new Set<string>();

/**
 * At route-table time each schema is checked against the JSON Schema meta-schema (a
 * mistake stops start-up, naming the route); it is closed and compiled the first time a
 * route answers with that status, once per distinct schema in the process.
 */
export function compileResponseValidators(responses: Record<number, JsonSchema>): ResponseValidators {
  const raw = new Map<number, JsonSchema>();
  for (const [status, schema] of Object.entries(responses)) {
    const key = JSON.stringify(schema);
    if (!checkedSchemas.has(key)) {
      if (!checkAjv.validateSchema(schema as object)) throw new Error(`status ${status}: ${checkAjv.errorsText(checkAjv.errors)}`);
      checkedSchemas.add(key);
    }
    raw.set(Number(status), schema);
  }
  const mine = new Map<number, ValidateFunction>();
  return {
    get(status) {
      const known = mine.get(status);
      if (known) return known;
      const schema = raw.get(status);
      if (!schema) return undefined;
      const validate = compileShared(checkAjv, closeSchema(schema) as object);
      mine.set(status, validate);
      return validate;
    },
  };
}

/** The schema's media type: `{ type: 'string', contentMediaType: 'text/html' }` is a page. */
export function mediaTypeOf(schema: JsonSchema): string {
  return typeof schema.contentMediaType === 'string' ? schema.contentMediaType : 'application/json';
}
