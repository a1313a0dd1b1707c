/** /project: the hierarchical project taxonomy (list, tree, one term, resolve a path, update). */
import { Type } from '../../sdk/index.js';
import { defineRoute, errorBody, json, successBody, type ContentStore, type RouteDefinition, type Term } from '../../sdk/index.js';
import { requireTermCreation } from './access.js';
import { parseRepoUrl } from './github.js';
import { META, TAXONOMY } from './model.js';
import type { Projects } from './projects.js';
import { segment, termProperties, termSchema, treeNodeSchema, updatedTermProperties } from './schemas.js';
import { docsyncError } from './errors.js';

const idParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const notFound = (id: number) => docsyncError('not_found', { message: `Project term ${id} not found`, data: { id } });
/** An address the sync can use, or '' to clear it. */
const repoUrl = { type: 'string', maxLength: 500 } as const;
const webUrl = { type: 'string', maxLength: 2000, anyOf: [{ const: '' }, { pattern: '^https?://[^\\s]+$' }] } as const;

export function repositoryInfo(term: Term): { owner: string; repo: string; url: string } | null {
  const url = typeof term.meta[META.repository] === 'string' ? (term.meta[META.repository] as string) : '';
  const ref = url ? parseRepoUrl(url) : null;
  return ref ? { ...ref, url } : null;
}

/** `meta.github_url` / `meta.wp_url` as the term meta they are stored in; a bad repository address is a 400. */
export function projectMetaOf(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!meta) return out;
  if (typeof meta.github_url === 'string') {
    const url = meta.github_url.trim();
    if (url && !parseRepoUrl(url))
      throw docsyncError('docsync_invalid_repo_url', {
        message: `'${url.slice(0, 200)}' is not a repository address (https://host/owner/repo or owner/repo)`,
        data: { field: 'github_url' },
      });
    out[META.repository] = url;
  }
  if (typeof meta.wp_url === 'string') out[META.listing] = meta.wp_url.trim();
  return out;
}

const projectMetaSchema = {
  type: 'object',
  properties: { github_url: repoUrl, wp_url: webUrl },
  additionalProperties: true,
  maxProperties: 50,
} as const;
/** The meta as a handler reads it (projectMetaOf picks the keys); Unsafe keeps the schema exact. */
const projectMeta = (extra: { default?: Record<string, never> } = {}) =>
  Type.Unsafe<Record<string, unknown>>({ ...projectMetaSchema, ...extra });
// The host applies these defaults before a handler runs; the fields stay optional in the
// schema (a client may leave them out), so handlers fall back to the same values.
const parent = Type.Optional(Type.Integer({ minimum: 0, default: 0 }));
const hideEmpty = Type.Optional(Type.Boolean({ default: false }));
const DEPTH = 3;

export function projectRoutes(content: ContentStore, projects: Projects): RouteDefinition[] {
  const ctx = projectRoutesContext(content, projects);
  return [listProjectsRoute(ctx), projectTreeRoute(ctx), getProjectRoute(ctx), resolveProjectRoute(ctx), updateProjectRoute(ctx)];
}

/** What the /project routes share: the stores, and the view of a term just written. */
function projectRoutesContext(content: ContentStore, projects: Projects) {
  const updatedView = async (term: Term) => {
    const terms = await projects.all();
    const withCount = terms.get(term.term_id) ?? { ...term, count: 0 };
    return {
      ...projects.view(withCount, terms),
      meta: { github_url: String(term.meta[META.repository] ?? ''), wp_url: String(term.meta[META.listing] ?? '') },
      repository_info: repositoryInfo(term),
    };
  };

  return { content, projects, updatedView };
}
type ProjectRoutesContext = ReturnType<typeof projectRoutesContext>;

function listProjectsRoute({ projects }: ProjectRoutesContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/project',
    permission: 'public',
    summary: 'Project terms under a parent (0: top level)',
    schema: {
      query: Type.Object({ parent, hide_empty: hideEmpty }),
      responses: { 200: { type: 'array', items: termSchema } },
    },
    async handle(request) {
      const q = { parent: request.query.parent ?? 0, hide_empty: request.query.hide_empty ?? false };
      const terms = await projects.all();
      const shown = q.hide_empty ? projects.nonEmpty(terms) : null;
      const items = [...terms.values()]
        .filter((t) => (t.parent_id ?? 0) === q.parent && (!shown || shown.has(t.term_id)))
        .sort((a, b) => a.name.localeCompare(b.name) || a.term_id - b.term_id);
      return json(
        200,
        items.map((t) => projects.view(t, terms)),
      );
    },
  });
}

function projectTreeRoute({ projects }: ProjectRoutesContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/project/tree',
    permission: 'public',
    summary: 'Project terms as a tree: from `parent` (0: the top level), `depth` levels (default 3)',
    schema: {
      query: Type.Object({
        parent,
        depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: DEPTH })),
        hide_empty: hideEmpty,
      }),
      responses: { 200: { type: 'array', items: treeNodeSchema }, 404: errorBody('not_found') },
    },
    async handle(request) {
      const q = {
        parent: request.query.parent ?? 0,
        depth: request.query.depth ?? DEPTH,
        hide_empty: request.query.hide_empty ?? false,
      };
      const terms = await projects.all();
      if (q.parent !== 0 && !terms.has(q.parent)) throw notFound(q.parent);
      return json(200, projects.tree(q.parent, q.depth, terms, q.hide_empty));
    },
  });
}

function getProjectRoute({ projects }: ProjectRoutesContext): RouteDefinition {
  return defineRoute({
    method: 'GET',
    path: '/project/{id}',
    permission: 'public',
    schema: { params: idParams, responses: { 200: successBody(termProperties), 404: errorBody('not_found') } },
    async handle(request) {
      const id = request.params.id;
      const terms = await projects.all();
      const term = terms.get(id);
      if (!term) throw notFound(id);
      return { ...projects.view(term, terms) };
    },
  });
}

function resolveProjectRoute({ projects }: ProjectRoutesContext): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/project/resolve',
    permission: 'public',
    summary: 'Resolve a taxonomy path to its leaf term; create_missing (manage_categories) creates the missing terms',
    schema: {
      body: Type.Object({
        path: Type.Array(segment, { minItems: 1, maxItems: 10 }),
        create_missing: Type.Optional(Type.Boolean({ default: false })),
        project_meta: Type.Optional(projectMeta({ default: {} })),
      }),
      responses: {
        200: successBody({
          leaf_term_id: { type: 'integer' },
          leaf_term_slug: { type: 'string' },
          path: { type: 'string' },
          created: { type: 'array', items: { type: 'string' } },
          terms: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'slug', 'name'],
              properties: { id: { type: 'integer' }, slug: { type: 'string' }, name: { type: 'string' } },
            },
          },
        }),
        400: errorBody('docsync_invalid_repo_url', 'docsync_term_slug_taken', 'invalid_term', 'term_exists'),
        401: errorBody('rest_forbidden'),
        403: errorBody('rest_forbidden'),
        404: errorBody('not_found'),
      },
    },
    async handle(request) {
      const body = request.body;
      const createMissing = body.create_missing ?? false;
      // The spec: create_missing needs manage_categories, whether or not a term is missing.
      if (createMissing) requireTermCreation(request.user);
      const meta = projectMetaOf(body.project_meta);
      const resolved = await projects.resolve(body.path, createMissing, meta);
      if (!resolved)
        throw docsyncError('not_found', { message: `No project term at the path ${body.path.join('/')}`, data: { path: body.path } });
      return {
        leaf_term_id: resolved.leaf.term_id,
        leaf_term_slug: resolved.leaf.slug,
        path: resolved.terms.map((t) => t.slug).join('/'),
        created: resolved.created,
        terms: resolved.terms.map((t) => ({ id: t.term_id, slug: t.slug, name: t.name })),
      };
    },
  });
}

function updateProjectRoute({ content, projects, updatedView }: ProjectRoutesContext): RouteDefinition {
  return defineRoute({
    method: 'PUT',
    path: '/project/{id}',
    permission: { capability: 'manage_categories' },
    summary: 'Update a project term: name, description, and meta github_url / wp_url (other meta keys are ignored)',
    schema: {
      params: idParams,
      body: Type.Object({
        name: Type.Optional(segment),
        description: Type.Optional(Type.String({ maxLength: 10_000 })),
        meta: Type.Optional(projectMeta()),
      }),
      responses: {
        200: successBody(updatedTermProperties),
        400: errorBody('docsync_invalid_repo_url', 'invalid_term', 'term_exists'),
        404: errorBody('not_found'),
      },
    },
    async handle(request) {
      const id = request.params.id;
      const body = request.body;
      const term = await projects.get(id);
      if (!term) throw notFound(id);
      if (body.name !== undefined) await projects.assertNameFree(term, body.name);
      const meta = projectMetaOf(body.meta);
      const updated = await content.updateTerm(TAXONOMY, id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(Object.keys(meta).length ? { meta } : {}),
      });
      return updatedView(updated);
    },
  });
}
