/**
 * A JSON Schema (draft 2020-12 / ajv 8) as plain data. Kept structural on purpose: route
 * schemas, handler settings and plugin settings are all validated by the host's ajv, and
 * the same objects are published in openapi.json.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };
