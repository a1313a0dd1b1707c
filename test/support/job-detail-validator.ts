// GET /jobs/{job_id}'s declared 200 body as a validator, closed the way the host closes the
// schemas it checks answers against (host/http/response-check.ts: undeclared fields fail).
import { Ajv } from 'ajv';
import { jobsSurface } from '../../core/jobs/routes.js';
import { surfaceRoutes } from '../../core/kernel/routes.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';
import { closeSchema } from '../../host/http/response-check.js';

const detailRoute = surfaceRoutes(jobsSurface({} as never, {} as never)).find((r) => r.method === 'GET' && r.path === '/jobs/{job_id}')!;

export const validateJobDetail = new Ajv({ strict: false, allErrors: true }).compile(
  closeSchema((detailRoute.schema!.responses as Record<number, JsonSchema>)[200]!) as object,
);
