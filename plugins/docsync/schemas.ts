/** JSON Schemas of the docsync/v1 answers (closed in check mode) and shared request pieces. */
import { Type } from '../../sdk/index.js';
import type { JsonSchema } from '../../sdk/index.js';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const obj = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
  additionalProperties: false,
});
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const termRef = obj({ id: int, slug: str, name: str });

export const docProperties = (withContent: boolean): Record<string, JsonSchema> => ({
  id: int,
  title: str,
  slug: str,
  excerpt: str,
  status: str,
  link: str,
  project: obj({
    assigned_term: nullable(termRef),
    project: nullable(termRef),
    category: nullable(termRef),
    project_type: str,
    hierarchy_path: str,
  }),
  meta: obj({ sync_source_file: str, sync_hash: str, sync_timestamp: str }),
  ...(withContent ? { content: str } : {}),
});
export const docSchema = (withContent: boolean): JsonSchema => obj(docProperties(withContent));

const termFields = {
  id: int,
  name: str,
  slug: str,
  description: str,
  parent: int,
  count: int,
  project_type: str,
  is_top_level: bool,
  is_project: bool,
};
export const termSchema = obj(termFields);
export const termProperties: Record<string, JsonSchema> = termFields;
export const treeNodeSchema: JsonSchema = {
  type: 'object',
  required: [...Object.keys(termFields), 'children', 'children_truncated'],
  properties: {
    ...termFields,
    children: { type: 'array', items: { type: 'object', additionalProperties: true } },
    children_truncated: { type: 'boolean' },
  },
  additionalProperties: false,
};
export const updatedTermProperties: Record<string, JsonSchema> = {
  ...termFields,
  meta: obj({ github_url: str, wp_url: str }),
  repository_info: nullable(obj({ owner: str, repo: str, url: str })),
};

export const syncErrorSchema = obj(
  { code: str, message: str, term_id: int, owner: str, repo: str, sso_url: str, rate_limit_reset: str, upstream_status: int, file: str },
  ['code', 'message', 'term_id'],
);

export const progressSchema = obj({ files_done: int, files_total: int, repository: str, repos_done: int, repos_total: int });

/** A segment of a taxonomy path or a folder name. */
// TypeBox, as the route schemas that use them are: their handlers read the values typed.
export const segment = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
/** A post's meta as a client writes it; Unsafe keeps this exact schema (propertyNames included). */
export const metaInput = Type.Unsafe<Record<string, string | number | boolean | null>>({
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 10_000 }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
});
export const isoDateTime: JsonSchema = { type: 'string', format: 'date-time', maxLength: 64 };
export const MAX_CONTENT = 2_000_000;
