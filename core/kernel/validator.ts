import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** One ajv configuration for the whole host: formats on, defaults applied, all errors. */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false, ...options });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

let checker: Ajv | undefined;

/**
 * Why `schema` is not a valid JSON Schema, or null when it is. One shared instance: each
 * ajv compiles the meta-schema's own validator on first use, and the boot-time checks of
 * routes and contributions would otherwise pay that once per instance.
 */
export function schemaProblem(schema: object): string | null {
  const ajv = (checker ??= createAjv());
  // Worded as ajv's own compile() refusal, so a message reads the same either way.
  return ajv.validateSchema(schema) ? null : `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
}

import { describeErrors, type ValidationIssue } from './validation-issues.js';

export { describeErrors, type ValidationIssue };

/** Validates `value` in place (defaults applied) and returns the issues, empty when valid. */
export function validateWith(ajv: Ajv, schema: JsonSchema, value: unknown): ValidationIssue[] {
  const validate = ajv.compile(schema as object);
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
