/** Running a saved flow or an ephemeral workflow, as POST /execute does (chat's run tools). */
import { createServiceRef } from '../kernel/service-ref.js';
import type { Principal } from '../kernel/principal.js';
import type { RunSource, WorkflowStep } from '../jobs/model.js';

/** POST /execute's body: a saved flow or an ephemeral workflow, now or once at `timestamp`. */
export interface ExecuteRequest {
  flow_id?: number;
  workflow?: { steps: WorkflowStep[] };
  timestamp?: number;
  initial_data?: Record<string, unknown>;
}

export interface ExecuteApi {
  /** Answers what POST /execute answers (job id, or the scheduled time). `user`: who asked. */
  execute(input: ExecuteRequest, source?: RunSource, user?: Principal | null): Promise<Record<string, unknown>>;
}

/** `deps: { execute: services.execute }`: provided by the core domain plugin. */
export const executeService = createServiceRef<ExecuteApi, 'root'>({ id: 'execute', scope: 'root' });
