/**
 * Schemas that type their handlers, as fastify's type providers do: a route's params,
 * query and body, a handler's settings and a tool's arguments reach the code typed by the
 * schema that validates them. A TypeBox schema (`import { Type } from 'typebox'`) is plain
 * JSON Schema at run time, so the host's ajv validates it like any other; the compiler
 * reads its static type. A plain JSON-schema object written `as const` types the value
 * too (json-schema-to-ts reads the literal; a property with a `default` counts as present,
 * since ajv fills it in before the handler runs). A schema whose type is not a literal
 * (built at run time, or without `as const`) types nothing: the value stays
 * `Record<string, unknown>`.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Static, TSchema } from 'typebox';
import type {
  CallContext,
  FetchHandler,
  HandlerDefinition,
  PublishHandler,
  ToolDefinition,
  UpdateHandler,
} from './kernel/contributions.js';
import type { JsonSchema } from './kernel/json-schema.js';
import type { RouteDefinition, RouteRequest, RouteResult, RouteSchema } from './kernel/routes.js';

/** A TypeBox schema: every TypeBox type carries its kind, which plain JSON Schema lacks. */
export type TypeBoxSchema = TSchema & { readonly '~kind': string };

/** What a typed define helper accepts where a schema goes: plain JSON Schema or TypeBox. */
export type SchemaInput = JsonSchema | TypeBoxSchema;

/**
 * The value a literal (`as const`) JSON schema admits. The wide `JsonSchema` type and any
 * schema json-schema-to-ts cannot read give `Fallback`, never `unknown` or `never`.
 */
type FromConstSchema<S, Fallback> = JsonSchema extends S ? Fallback : S extends JSONSchema ? FromSchema<S> : Fallback;

/** The value a schema admits: its static type for a TypeBox or an `as const` schema, else `Fallback`. */
export type StaticOf<S, Fallback> = S extends TypeBoxSchema ? Static<S> : FromConstSchema<S, Fallback>;

type Part<S, K extends string, Fallback> = S extends { readonly [P in K]: infer X } ? StaticOf<X, Fallback> : Fallback;

/** A route schema whose params, query and body may be TypeBox schemas. */
export interface TypedRouteSchema extends Omit<RouteSchema, 'params' | 'query' | 'body'> {
  params?: SchemaInput;
  query?: SchemaInput;
  body?: SchemaInput;
}

/**
 * The declared keys only: the host drops query parameters a schema does not declare, so an
 * open query schema's `[key: string]: unknown` is not in the type. A type with no declared
 * key (the untyped fallback) stays as it is.
 */
type DeclaredOnly<T> = string extends keyof T
  ? { [K in keyof T as string extends K ? never : K]: T[K] } extends infer D
    ? keyof D extends never
      ? T
      : D
    : never
  : T;

/** The request a route's `handle` receives, typed by its schema. */
export type TypedRequest<S> = RouteRequest<
  Part<S, 'params', Record<string, unknown>>,
  DeclaredOnly<Part<S, 'query', Record<string, unknown>>>,
  Part<S, 'body', unknown>
>;

/**
 * A route whose request is typed by its schema (see `defineRoute`). The schema alone says
 * what the request is (`NoInfer`): a handler written apart, with a typed parameter, is
 * checked against the schema instead of reshaping it.
 */
export interface TypedRouteDefinition<S extends TypedRouteSchema> extends Omit<RouteDefinition, 'schema' | 'handle' | 'bodyLimit'> {
  schema?: S;
  bodyLimit?: number | ((request: TypedRequest<NoInfer<S>>) => number | Promise<number>);
  handle(request: TypedRequest<NoInfer<S>>): Promise<RouteResult> | RouteResult;
}

/** A tool whose `run` (and `destructive`) receive arguments typed by `parameters`. */
export interface TypedToolDefinition<P extends SchemaInput> extends Omit<ToolDefinition, 'parameters' | 'run' | 'destructive'> {
  parameters: P;
  run(args: StaticOf<P, Record<string, unknown>>, ctx: CallContext): Promise<unknown>;
  destructive?: boolean | ((args: StaticOf<P, Record<string, unknown>>) => boolean);
}

/** A handler whose settings are typed by its TypeBox `settings` schema. */
export type TypedHandlerDefinition<Schema extends TypeBoxSchema> =
  | (Omit<FetchHandler<Static<Schema>>, 'settings'> & { settings: Schema })
  | (Omit<PublishHandler<Static<Schema>>, 'settings'> & { settings: Schema })
  | (Omit<UpdateHandler<Static<Schema>>, 'settings'> & { settings: Schema });

/** The registries hold schemas as data: a typed definition, erased to what they store. */
export type ErasedHandler<Schema extends TypeBoxSchema> = HandlerDefinition<Static<Schema>>;
