import { apiError } from '../errors/catalogue.js';
import type { DocumentStore } from '../store/port.js';
import { PIPELINES, type PipelineRecord } from './model.js';

/**
 * Pipeline records as flows read them: the one piece of pipelines that flows need. It is
 * what breaks the cycle between the two services (pipelines cascade deletes to flows, flows
 * read their pipeline), so both are built from their deps, pipelines after flows.
 */
export class PipelineRecords {
  constructor(private readonly store: DocumentStore) {}

  /** 404 `pipeline_not_found` for none, or one being deleted. */
  async get(pipelineId: number): Promise<PipelineRecord> {
    const pipeline = await this.store.collection<PipelineRecord>(PIPELINES).findOne({ pipeline_id: pipelineId, deleting: { $ne: true } });
    if (!pipeline) throw apiError('pipeline_not_found', { message: `Pipeline ${pipelineId} not found` });
    return pipeline;
  }

  /** The record as stored (a pipeline being deleted included); null when there is none. */
  find(pipelineId: number): Promise<PipelineRecord | null> {
    return this.store.collection<PipelineRecord>(PIPELINES).findOne({ pipeline_id: pipelineId });
  }

  /** The agent a pipeline belongs to (its runs' log entries carry it); null when none or gone. */
  async agentOf(pipelineId: number | null): Promise<number | null> {
    if (pipelineId === null) return null;
    const pipeline = await this.store
      .collection<PipelineRecord>(PIPELINES)
      .findOne({ pipeline_id: pipelineId }, { projection: { pipeline_id: 1, agent_id: 1 } });
    return typeof pipeline?.agent_id === 'number' ? pipeline.agent_id : null;
  }
}
