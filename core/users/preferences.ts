import type { SurfaceDefinition } from '../kernel/routes.js';
import type { DocumentStore } from '../store/port.js';
import type { PipelinesService } from '../pipelines/service.js';
import type { UsersService } from './service.js';
import { withResponses } from '../kernel/response-schemas.js';
import { preferencesResponses } from './responses.js';
import { apiError } from '../errors/catalogue.js';
import { defineRoute } from '../../sdk/define.js';

/** Each user's one preference: the pipeline selected in the admin interface. */
export class PreferencesService {
  constructor(
    private readonly store: DocumentStore,
    private readonly users: UsersService,
    private readonly pipelines: PipelinesService,
  ) {}

  private get collection() {
    return this.store.collection<{ user_id: number; selected_pipeline_id: number | null }>('user_preferences');
  }

  async get(userId: number): Promise<{ user_id: number; selected_pipeline_id: number | null }> {
    await this.requireUser(userId);
    const doc = await this.collection.findOne({ _id: `user-${userId}` });
    const selected = doc?.selected_pipeline_id ?? null;
    // A deleted pipeline is no selection: cleared here (a read repairs what any delete left),
    // so neither this answer nor a later one points at a pipeline that is gone.
    if (selected !== null && !(await this.pipelines.exists(selected))) {
      await this.collection.updateOne({ _id: `user-${userId}`, selected_pipeline_id: selected }, { $set: { selected_pipeline_id: null } });
      return { user_id: userId, selected_pipeline_id: null };
    }
    return { user_id: userId, selected_pipeline_id: selected };
  }

  /** The pipeline's existence is checked before anything is saved; null clears. */
  async set(userId: number, selected: number | null | undefined): Promise<{ user_id: number; selected_pipeline_id: number | null }> {
    await this.requireUser(userId);
    if (selected === undefined) return this.get(userId);
    if (selected !== null && !(await this.pipelines.exists(selected)))
      throw apiError('pipeline_not_found', { message: `Pipeline ${selected} not found` });
    await this.collection.updateOne(
      { _id: `user-${userId}` },
      { $set: { user_id: userId, selected_pipeline_id: selected } },
      { upsert: true },
    );
    return { user_id: userId, selected_pipeline_id: selected };
  }

  private async requireUser(userId: number): Promise<void> {
    if (userId !== 0 && !(await this.users.exists(userId)))
      throw apiError('rest_user_invalid_id', { message: `Invalid user ID ${userId}.` });
  }
}

const body = { type: 'object', properties: { selected_pipeline_id: { type: ['integer', 'null'], minimum: 1 } } } as const;
const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/** GET/POST /users/{id} and /users/me exactly as the spec. */
export function preferencesSurface(preferences: PreferencesService): SurfaceDefinition {
  const selfOrAdmin = {
    description: 'logged in and (manage_options or the target user)',
    check: (request: { user: { userId: number; can(c: string): boolean } | null; params: Record<string, unknown> }) =>
      Boolean(request.user && (request.user.can('manage_options') || request.user.userId === Number(request.params.id))),
  };
  const answer = (pref: { user_id: number; selected_pipeline_id: number | null }) => ({ success: true, ...pref });
  return withResponses(
    {
      id: 'user-preferences',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/users/me',
          permission: 'authenticated',
          summary: "The current user's preference",
          handle: async (r) => answer(await preferences.get(r.user!.userId)),
        }),
        defineRoute({
          method: 'POST',
          path: '/users/me',
          permission: 'authenticated',
          summary: "Set the current user's selected pipeline (null clears)",
          schema: { body },
          handle: async (r) => answer(await preferences.set(r.user!.userId, r.body.selected_pipeline_id)),
        }),
        defineRoute({
          method: 'GET',
          path: '/users/{id}',
          permission: selfOrAdmin,
          summary: "A user's preference",
          schema: { params },
          handle: async (r) => answer(await preferences.get(r.params.id)),
        }),
        defineRoute({
          method: 'POST',
          path: '/users/{id}',
          permission: selfOrAdmin,
          summary: "Set a user's selected pipeline (null clears)",
          schema: { params, body },
          handle: async (r) => answer(await preferences.set(r.params.id, r.body.selected_pipeline_id)),
        }),
      ],
    },
    preferencesResponses,
  );
}
