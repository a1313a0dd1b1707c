/** Request and answer pieces the /sync route files share, and what those routes are built from. */
import { Type } from '../../sdk/index.js';
import type { ContentStore, JsonSchema } from '../../sdk/index.js';
import type { DocsService } from './docs-service.js';
import type { SyncJobs } from './jobs.js';
import type { DocsyncSettings } from './model.js';
import type { Projects } from './projects.js';
import { progressSchema } from './schemas.js';
import type { AccessToken } from './token.js';

export type SyncRouteDeps = {
  content: ContentStore;
  docs: DocsService;
  projects: Projects;
  jobs: SyncJobs;
  token: AccessToken;
  settings: DocsyncSettings;
};

export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const strings = { type: 'array', items: str } as const;
export const jobFields: Record<string, JsonSchema> = {
  job_id: str,
  status: { enum: ['queued', 'running', 'completed', 'failed'] },
  progress: progressSchema,
};
// The request schemas are TypeBox so the routes (defineRoute) read them typed. A default
// is applied by the host before a handler runs; the field stays optional in the schema (a
// client may leave it out), so handlers fall back to the same value.
export const waitProperty = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 300,
    description: 'Seconds to wait for the job before answering with its id (default: the configured sync_wait_seconds)',
  }),
);
export const force = Type.Optional(Type.Boolean({ default: false }));
export const slugPattern = Type.String({ minLength: 1, maxLength: 200 });
export const idParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
