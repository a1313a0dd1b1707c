/** Running a saved flow or an ephemeral workflow, as POST /execute does (chat's run tools). */
import { createServiceRef } from '../../core/kernel/service-ref.js';
import type { Principal } from '../../core/kernel/principal.js';
import type { ExecuteRequest } from '../../core/engine/execute.js';

export type { ExecuteRequest } from '../../core/engine/execute.js';

export interface ExecuteApi {
  /** Answers what POST /execute answers (job id, or the scheduled time). `user`: who asked. */
  execute(input: ExecuteRequest, source?: 'execute' | 'cli' | 'chat', user?: Principal | null): Promise<Record<string, unknown>>;
}

/** `deps: { execute: services.execute }`: provided by the core domain plugin. */
export const executeService = createServiceRef<ExecuteApi, 'root'>({ id: 'execute', scope: 'root' });
