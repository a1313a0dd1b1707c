import type { JsonSchema } from '../../core/kernel/json-schema.js';
import type { Permission, UploadSchema } from '../../core/kernel/routes.js';
import type { CompiledRoute } from './route-table.js';
import { mediaTypeOf } from './response-check.js';
import { ERROR_COMPONENT, OpenApiComponents } from './openapi-components.js';

const REASONS: Record<number, string> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  400: 'Invalid request',
  401: 'Not logged in or bad credentials',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload too large',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Upstream error',
  503: 'Unavailable',
};

function codesOf(schema: JsonSchema): string[] {
  const values = ((schema.properties as Record<string, JsonSchema> | undefined)?.code?.enum ?? []) as unknown[];
  return values.filter((v): v is string => typeof v === 'string');
}

/** Each status the route answers, with its body's schema (errors: their `code` enum). */
function responsesOf(route: CompiledRoute, components: OpenApiComponents): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(route.responses).sort(([a], [b]) => Number(a) - Number(b))) {
    const media = mediaTypeOf(schema);
    const codes = codesOf(schema);
    const reason = REASONS[Number(status)] ?? (Number(status) < 400 ? 'Success' : 'Error');
    const headers = route.definition.schema?.responseHeaders?.[Number(status)];
    out[status] = {
      description: codes.length ? `${reason}: ${codes.join(', ')}` : typeof schema.description === 'string' ? schema.description : reason,
      ...(headers ? { headers } : {}),
      content: { [media]: { schema: media === 'application/json' ? components.use(schema) : { type: 'string' } } },
    };
  }
  if (Object.keys(out).length === 0)
    out.default = {
      description: 'Error',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_COMPONENT}` } } },
    };
  return out;
}

function permissionText(permission: Permission): string {
  if (permission === 'public') return 'public';
  if (permission === 'authenticated') return 'authenticated';
  if ('capability' in permission) return `capability:${permission.capability}`;
  return `check:${permission.description}`;
}

function parameters(
  schema: JsonSchema | undefined,
  where: 'path' | 'query',
  pathNames: string[],
  components: OpenApiComponents,
): unknown[] {
  const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const names = where === 'path' ? pathNames : Object.keys(props);
  return names.map((name) => ({
    name,
    in: where,
    required: where === 'path' ? true : required.has(name),
    schema: components.use(props[name] ?? { type: 'string' }, { request: true }),
  }));
}

/**
 * An upload as readUpload takes it: a multipart form (the file in its field, text fields
 * beside it) or, with any other Content-Type, the raw body as the file. Both are declared
 * so a generated client can send either (a browser's FormData, or bytes from a file).
 */
function uploadBody(upload: UploadSchema, components: OpenApiComponents): Record<string, unknown> {
  const field = upload.field ?? 'file';
  const fields = Object.fromEntries(
    Object.entries(upload.fields ?? {}).map(([name, schema]) => [name, components.use(schema, { request: true })]),
  );
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [field],
          properties: {
            [field]: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file, with its filename' },
            ...fields,
          },
        },
      },
      '*/*': {
        schema: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file itself, typed by Content-Type' },
      },
    },
  };
}

/** Names a raw upload's file; a multipart part names its own. */
const DISPOSITION = {
  name: 'Content-Disposition',
  in: 'header',
  required: false,
  description: 'With a raw body (not multipart/form-data), required: `attachment; filename="photo.jpg"`.',
  schema: { type: 'string', maxLength: 1000 },
};

/**
 * OpenAPI 3.1 from the route table: the schemas that validate are the schemas documented,
 * with their shared shapes as components (openapi-components.ts). The document is the
 * answer as is (no `success` key: OpenAPI allows no other top-level field).
 */
export function buildOpenApi(routes: CompiledRoute[], info: { version: string; serverUrl: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new OpenApiComponents();
  for (const route of routes) {
    if (route.definition.openapi === false) continue;
    const schema = route.definition.schema ?? {};
    const pathNames = [...route.fullPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const permission = permissionText(route.definition.permission);
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}_${route.fullPath.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: route.definition.summary ?? `${route.method} ${route.fullPath}`,
      tags: [route.namespace || 'system'],
      'x-flowhost-permission': permission,
      'x-flowhost-plugin': route.owner,
      parameters: [
        ...parameters(schema.params, 'path', pathNames, components),
        ...parameters(schema.query, 'query', [], components),
        ...Object.entries(schema.requestHeaders ?? {}).map(([name, h]) => ({
          name,
          in: 'header',
          required: h.required ?? false,
          description: h.description,
          schema: h.schema,
        })),
      ],
      responses: responsesOf(route, components),
    };
    if (route.definition.description) operation.description = route.definition.description;
    if (permission === 'public') operation.security = [];
    if (schema.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: components.use(schema.body, { request: true }) } },
      };
    else if (route.definition.streamBody && schema.upload) {
      operation.requestBody = uploadBody(schema.upload, components);
      (operation.parameters as unknown[]).push(DISPOSITION);
    } else if (route.definition.streamBody) operation.requestBody = { required: true, content: { '*/*': { schema: { type: 'string' } } } };
    // The router ignores a trailing slash; OpenAPI tools refuse one (`{prefix}/`, the API index).
    const published = route.fullPath.length > 1 ? route.fullPath.replace(/\/+$/, '') : route.fullPath;
    (paths[published] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Flowhost', version: info.version, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: info.serverUrl }],
    security: [{ basic: [] }, { cookie: [], nonce: [] }],
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic', description: 'Login and an application password.' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'flowhost_session' },
        nonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: 'Also accepted as X-Flowhost-Nonce.' },
      },
      schemas: components.sorted(),
    },
    paths,
  };
}
