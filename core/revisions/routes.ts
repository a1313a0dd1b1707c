/**
 * The revision routes of a flow or a pipeline (issue 55), one builder for both kinds:
 * `GET {base}/revisions` (newest first, paged as the other lists: `per_page`, `offset`,
 * `total`), `GET {base}/revisions/{revision}` (the snapshot), `GET {base}/revisions/diff`
 * (`from`, `to`: RFC 6902 operations and the changed paths with their values) and
 * `POST {base}/revisions/{revision}/restore` (a new revision). Permission: the kind's own
 * routes' (manage_options).
 */
import type { JsonSchema } from '../kernel/json-schema.js';
import type { Principal } from '../kernel/principal.js';
import type { RouteDefinition } from '../kernel/routes.js';
import { anyObject, errorBody, int, isoDate, list, named, nullable, obj, str, successBody } from '../kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import { apiError } from '../errors/catalogue.js';
import { namedSteps, revisionDiff, secretChanges, type StepName } from './diff.js';
import type { RevisionRecord } from './model.js';
import type { RevisionLog } from './revision-log.js';

const admin = { capability: 'manage_options' } as const;
const MAX_ID = Number.MAX_SAFE_INTEGER;

export interface RevisionSubject {
  /** `flow` or `pipeline`: the word in messages. */
  kind: 'flow' | 'pipeline';
  /** `/flows/{flow_id}` or `/pipelines/{id}`. */
  base: string;
  /** The id's path parameter (`flow_id`, `id`). */
  param: string;
  log: RevisionLog;
  notFound: 'flow_not_found' | 'pipeline_not_found';
  /** Whether the flow or pipeline exists now (a deleted one's revisions stay readable). */
  exists(id: number): Promise<boolean>;
  /** Restores and answers the restored record's view and its new revision number. */
  restore(id: number, revision: number, by: Principal | null): Promise<{ revision: number; view: unknown }>;
  /** The record's view schema (what restore answers in `data.<kind>`). */
  view: JsonSchema;
  /** The steps a diff's `/steps/{key}` paths name, by key, from the two revisions (and what else the kind knows). */
  stepNames(id: number, from: RevisionRecord, to: RevisionRecord): Promise<Map<string, StepName>>;
}

const revisionFields: Record<string, JsonSchema> = {
  revision: int,
  action: { type: 'string', enum: ['create', 'update', 'delete', 'duplicate', 'import', 'restore', 'recovered'] },
  change: { ...str, description: 'What the change touched, as the change log names it (flow.step.config, pipeline.step.add, ...)' },
  user_id: nullable(int),
  user_login: nullable(str),
  client: { ...str, description: 'rest, cli, console, chat, mcp, or system (a boot repair, a cascade)' },
  created_at: isoDate,
  restored_from: nullable(int),
};

export const revisionView: JsonSchema = named('Revision', obj(revisionFields));

function view(record: RevisionRecord): Record<string, unknown> {
  return {
    revision: record.revision,
    action: record.action,
    change: record.change,
    user_id: record.user_id,
    user_login: record.user_login,
    client: record.client,
    created_at: new Date(record.created_at).toISOString(),
    restored_from: record.restored_from ?? null,
  };
}

const revisionParam = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;
const listQuery = {
  type: 'object',
  properties: {
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, maximum: MAX_ID, default: 0 },
  },
} as const;
const diffQuery = {
  type: 'object',
  required: ['from', 'to'],
  properties: { from: revisionParam, to: revisionParam },
} as const;
const authErrors = {
  401: errorBody('rest_not_logged_in', 'rest_invalid_credentials'),
  403: errorBody('rest_forbidden', 'rest_cookie_invalid_nonce'),
} as const;

export function revisionRoutes(subject: RevisionSubject): RouteDefinition[] {
  const { base, param, log, kind } = subject;
  const idParams = { type: 'object', required: [param], properties: { [param]: { type: 'integer', minimum: 1, maximum: MAX_ID } } };
  const revParams = {
    type: 'object',
    required: [param, 'revision'],
    properties: { [param]: { type: 'integer', minimum: 1, maximum: MAX_ID }, revision: revisionParam },
  };
  const notFound = errorBody(subject.notFound, 'revision_not_found');
  const idOf = (params: Record<string, unknown>) => params[param] as number;
  /** The revision, 404 naming the record when neither it nor any revision of it is known. */
  const find = async (id: number, revision: number): Promise<RevisionRecord> => {
    const found = await log.get(id, revision);
    if (found) return found;
    if (!(await subject.exists(id)) && !(await log.latest(id)))
      throw apiError(subject.notFound, { message: `${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id} not found` });
    throw apiError('revision_not_found', { message: `${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id} has no revision ${revision}` });
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${base}/revisions`,
      permission: admin,
      summary: `The ${kind}'s revisions, newest first: who changed it, when, from which client`,
      schema: {
        params: idParams as JsonSchema,
        query: listQuery,
        responses: {
          200: successBody({ data: obj({ revisions: list(revisionView), total: int }), total: int, per_page: int, offset: int }),
          400: errorBody('rest_invalid_param'),
          ...authErrors,
          404: notFound,
        },
      },
      async handle(request) {
        const id = idOf(request.params);
        const { per_page, offset } = request.query;
        const { items, total } = await log.list(id, per_page, offset);
        if (total === 0 && !(await subject.exists(id)))
          throw apiError(subject.notFound, { message: `${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id} not found` });
        return { success: true, data: { revisions: items.map(view), total }, total, per_page, offset };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/revisions/diff`,
      permission: admin,
      summary: `What changed between two revisions of the ${kind} (RFC 6902 operations, and each changed path before and after)`,
      schema: {
        params: idParams as JsonSchema,
        query: diffQuery,
        responses: {
          200: successBody({
            data: obj({
              from: revisionView,
              to: revisionView,
              patch: list(anyObject),
              changes: list(
                obj(
                  {
                    op: { type: 'string', enum: ['add', 'remove', 'replace', 'move'] },
                    path: str,
                    before: {},
                    after: {},
                    secret: { type: 'boolean', description: 'true: a secret changed; no values are shown' },
                    step: {
                      ...obj({ pipeline_step_id: str, flow_step_id: str, position: int, step_type: str }, [
                        'pipeline_step_id',
                        'position',
                        'step_type',
                      ]),
                      description: 'The step a /steps/… path is in: position (1-based), type and ids',
                    },
                  },
                  ['op', 'path'],
                ),
              ),
            }),
          }),
          400: errorBody('rest_invalid_param', 'rest_missing_callback_param'),
          ...authErrors,
          404: notFound,
        },
      },
      async handle(request) {
        const id = idOf(request.params);
        const from = await find(id, request.query.from);
        const to = await find(id, request.query.to);
        const { patch, changes } = revisionDiff(from.snapshot, to.snapshot);
        const secrets = secretChanges(from.secret_fingerprints, to.secret_fingerprints, changes);
        const named = namedSteps([...changes, ...secrets], await subject.stepNames(id, from, to));
        return { success: true, data: { from: view(from), to: view(to), patch, changes: named } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/revisions/{revision}`,
      permission: admin,
      summary: `One revision of the ${kind} with its configuration as it was (secrets masked)`,
      schema: {
        params: revParams as JsonSchema,
        responses: {
          200: successBody({ data: obj({ ...revisionFields, snapshot: anyObject }) }),
          400: errorBody('rest_invalid_param'),
          ...authErrors,
          404: notFound,
        },
      },
      async handle(request) {
        const found = await find(idOf(request.params), request.params.revision as number);
        return { success: true, data: { ...view(found), snapshot: found.snapshot } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/revisions/{revision}/restore`,
      permission: admin,
      summary: `Restore the ${kind} to a revision, recorded as a new revision (secrets it shows masked keep their current values)`,
      schema: {
        params: revParams as JsonSchema,
        responses: {
          200: successBody({ message: str, data: obj({ revision: int, restored_from: int, [kind]: subject.view }) }),
          400: errorBody('rest_invalid_param'),
          ...authErrors,
          404: notFound,
        },
      },
      async handle(request) {
        const id = idOf(request.params);
        const revision = request.params.revision as number;
        if (!(await subject.exists(id)))
          throw apiError(subject.notFound, { message: `${kind === 'flow' ? 'Flow' : 'Pipeline'} ${id} not found` });
        const restored = await subject.restore(id, revision, request.user);
        return {
          success: true,
          message: `Restored revision ${revision} as revision ${restored.revision}.`,
          data: { revision: restored.revision, restored_from: revision, [kind]: restored.view },
        };
      },
    }),
  ];
}
