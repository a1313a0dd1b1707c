import { UnsupportedQueryError, type IndexSpec } from '../../../core/store/port.js';
import { checkPath, fieldExpr, typeExpr } from './json-path.js';

const INDEX_NAME = /^[A-Za-z0-9_-]{1,100}$/;
/** Suffix of the companion index that makes null / missing keys collide (see below). */
export const NULL_KEYS_SUFFIX = '__nulls';

/** SQLite index names are per database; a collection's are prefixed with its name. */
export function sqliteIndexName(collection: string, name: string): string {
  return `c_${collection}__${name}`;
}

/** The port-level index name a SQLite index name stands for (for DuplicateKeyError). */
export function portIndexName(collection: string, sqliteName: string): string {
  const prefix = sqliteIndexName(collection, '');
  const bare = sqliteName.startsWith(prefix) ? sqliteName.slice(prefix.length) : sqliteName;
  return bare.endsWith(NULL_KEYS_SUFFIX) ? bare.slice(0, -NULL_KEYS_SUFFIX.length) : bare;
}

/** Default names follow the MongoDB adapter's (`level_1_created_at_-1`, dots as `_`). */
export function indexName(spec: IndexSpec): string {
  const fields = Object.entries(spec.fields ?? {});
  const name = spec.name ?? fields.map(([path, dir]) => `${path.replace(/\./g, '_')}_${dir}`).join('_');
  if (!INDEX_NAME.test(name)) throw new UnsupportedQueryError(`Invalid index name '${name}' (letters, digits, '_' and '-')`);
  return name;
}

/**
 * The statements for one port index, run in one transaction.
 *
 * The main index is over exactly the expressions queries and sorts use (json-path.ts), so
 * SQLite picks it; `sparse` makes it partial on the first field, which equality and range
 * conditions on that field imply. SQLite lets NULLs repeat in a unique index, but MongoDB
 * indexes a missing or null field as null, so two documents without `email` collide under
 * a unique `{email: 1}`. A unique index therefore gets a companion that holds only rows
 * with a null / missing key part, with those parts mapped to an empty blob (a value
 * json_extract never returns): it enforces exactly those collisions and stays small. For
 * a sparse unique index the companion skips documents that have none of the fields, as
 * MongoDB's sparse indexes do.
 */
export function indexStatements(collection: string, table: string, spec: IndexSpec): { name: string; statements: string[] } {
  if (!spec || typeof spec !== 'object') throw new UnsupportedQueryError('createIndex needs an index spec');
  const fields = Object.entries(spec.fields ?? {});
  if (fields.length === 0) throw new UnsupportedQueryError('An index needs at least one field');
  for (const [path, dir] of fields) {
    checkPath(path);
    if (dir !== 1 && dir !== -1) throw new UnsupportedQueryError(`Index direction for '${path}' must be 1 or -1`);
  }
  const name = indexName(spec);
  const exprs = fields.map(([path]) => fieldExpr(path));
  const columns = fields.map(([path, dir]) => `${fieldExpr(path)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ');
  const partial = spec.sparse ? ` WHERE ${exprs[0]} IS NOT NULL` : '';
  const statements = [
    `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${sqliteIndexName(collection, name)}" ON ${table} (${columns})${partial}`,
  ];
  if (spec.unique) {
    const anyNull = exprs.map((e) => `${e} IS NULL`).join(' OR ');
    const anyPresent = fields.map(([path]) => `${typeExpr(path)} IS NOT NULL`).join(' OR ');
    statements.push(
      `CREATE UNIQUE INDEX IF NOT EXISTS "${sqliteIndexName(collection, name + NULL_KEYS_SUFFIX)}" ON ${table} (${exprs.map((e) => `IFNULL(${e}, X'')`).join(', ')})` +
        ` WHERE (${anyNull})${spec.sparse ? ` AND (${anyPresent})` : ''}`,
    );
  }
  return { name, statements };
}
