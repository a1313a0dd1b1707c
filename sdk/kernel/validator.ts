import { _, Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';
import { cachedCompile, FORMATS_CODE_PATH, knownValidSchema, rememberValidSchema, validatorCacheEnabled } from './validator-code-cache.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** The options each instance was made with, as text: instances with the same text compile alike. */
const optionsOf = new WeakMap<Ajv, string>();

/** One ajv configuration for the whole host: formats on, defaults applied, all errors. */
export function createAjv(options: Options = {}): Ajv {
  // With the validator cache on, instances keep their generated code (to write it) and
  // name the formats as standalone code reaches them.
  const code = validatorCacheEnabled() ? { code: { source: true, formats: _`require(${FORMATS_CODE_PATH}).fullFormats` } } : {};
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...code, ...options });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  optionsOf.set(ajv, JSON.stringify(options));
  return ajv;
}

/** Validators by options and schema text, for the whole process (see `compileShared`). */
const sharedValidators = new Map<string, ValidateFunction>();

/**
 * `ajv.compile(schema)`, reusing what an instance made with the same options already
 * compiled for the same schema text in this process. Hosts in one process (every test
 * host of a suite) declare the same routes and contributions, and compiling them anew was
 * about half of a checking host's start. Only for self-contained schemas (no `$id` or
 * `$ref` to schemas added to the instance): the validator is not registered on `ajv`.
 */
export function compileShared(ajv: Ajv, schema: object): ValidateFunction {
  const options = optionsOf.get(ajv);
  if (options === undefined) return ajv.compile(schema);
  const schemaText = JSON.stringify(schema);
  const key = `${options}\u0000${schemaText}`;
  let validate = sharedValidators.get(key);
  if (!validate) {
    validate = cachedCompile(ajv, options, schemaText, () => ajv.compile(schema));
    sharedValidators.set(key, validate);
  }
  return validate;
}

let checker: Ajv | undefined;
/** Schema texts found valid in this process (or, through the disk cache, by an earlier one). */
const validSchemas = new Set<string>();

/**
 * Why `schema` is not a valid JSON Schema, or null when it is. One shared instance: each
 * ajv compiles the meta-schema's own validator on first use, and the boot-time checks of
 * routes and contributions would otherwise pay that once per instance.
 */
export function schemaProblem(schema: object): string | null {
  const text = JSON.stringify(schema);
  if (validSchemas.has(text)) return null;
  if (knownValidSchema(text)) {
    validSchemas.add(text);
    return null;
  }
  const ajv = (checker ??= createAjv());
  // Worded as ajv's own compile() refusal, so a message reads the same either way.
  if (!ajv.validateSchema(schema)) return `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
  validSchemas.add(text);
  rememberValidSchema(text);
  return null;
}

import { describeErrors, type ValidationIssue } from './validation-issues.js';

export { describeErrors, type ValidationIssue };

/** Validates `value` in place (defaults applied) and returns the issues, empty when valid. */
export function validateWith(ajv: Ajv, schema: JsonSchema, value: unknown): ValidationIssue[] {
  const validate = compileShared(ajv, schema as object);
  return validate(value) ? [] : describeErrors(validate.errors);
}

/**
 * Validators of contributions' `parameters` schemas (chat tools, analytics tools), each
 * compiled on first use and kept per definition object. `useDefaults: false` leaves the
 * validated value as sent (a tool that must see exactly what the caller asked).
 */
export function parameterValidators<T extends { readonly parameters: JsonSchema }>(
  options: { useDefaults?: boolean } = {},
): (definition: T) => ValidateFunction {
  const ajv = createAjv({ useDefaults: options.useDefaults ?? true });
  const compiled = new WeakMap<T, ValidateFunction>();
  return (definition) => {
    let validate = compiled.get(definition);
    if (!validate) {
      validate = ajv.compile(definition.parameters as object);
      compiled.set(definition, validate);
    }
    return validate;
  };
}
