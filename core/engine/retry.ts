import { actingUserRecord } from '../kernel/acting-user.js';
import type { Principal } from '../kernel/principal.js';
import { apiError } from '../errors/catalogue.js';
import type { FlowsService } from '../flows/service.js';
import type { JobsService } from '../jobs/service.js';
import type { JobRecord, RetryFrom } from '../jobs/model.js';

/** What a retry made: the new job, and the job it retries. */
export interface RetryResult {
  job: JobRecord;
  retried: JobRecord;
  from: RetryFrom;
}

/** Where a retry's job is started: its flow's queue (after the runs waiting there), or at once (an ephemeral workflow). */
export interface RetryStarter {
  runNextQueued(flowId: number): void;
  start(jobId: number): unknown;
}

const RETRYABLE: ReadonlySet<JobRecord['status']> = new Set(['failed', 'cancelled']);

/**
 * POST /jobs/{id}/retry and `flowhost jobs retry`: a failed or cancelled run again, as a new
 * job that records `retry_of`. From the failed step (the default), earlier steps are not run
 * again and the failed step gets the input it had (core/engine/run-resume.ts); items it had
 * published are not published again. From the start, the flow runs as it is now with the
 * run's data (a webhook's payload). One retry per job: a failed retry is retried in turn.
 */
export class RetryService {
  constructor(
    private readonly deps: {
      jobs: JobsService;
      flows: Pick<FlowsService, 'get'>;
      starter: () => RetryStarter;
      log?: (message: string, context: Record<string, unknown>, user: Principal | null) => Promise<void>;
    },
  ) {}

  async retry(jobId: number, from: RetryFrom, source: 'execute' | 'cli', user: Principal | null): Promise<RetryResult> {
    const { jobs } = this.deps;
    const retried = await jobs.get(jobId);
    await this.checkRetryable(retried);
    // The flow as it is now (its fix is why the run is retried); gone: flow_not_found.
    const flow = retried.flow_id !== null ? await this.deps.flows.get(retried.flow_id) : null;
    const job = await jobs.create({
      flow_id: retried.flow_id,
      pipeline_id: flow ? flow.pipeline_id : retried.pipeline_id,
      label: flow ? flow.flow_name : retried.label,
      engine_data: { ...retried.engine_data },
      workflow: retried.workflow,
      source,
      started_by: actingUserRecord(user),
      // A flow's retry waits for its flow like a webhook's run: never skipped as "already running".
      queued: retried.flow_id !== null,
      retry: { of: retried.job_id, from, ...(from === 'failed_step' ? { resume: this.resumeOf(retried) } : {}) },
      // What the retried run's approval steps decided: the retry waits only for the rest.
      decided: retried.decided ?? [],
    });
    if (!(await jobs.markRetried(retried.job_id, job.job_id, retried.retried_by))) {
      await jobs.discardUnstarted(job.job_id);
      const now = await jobs.get(retried.job_id);
      throw this.alreadyRetried(now, now.retried_by ?? job.job_id);
    }
    const who = user ? `${user.login} (user ${user.userId})` : 'an unknown user';
    const where = from === 'failed_step' ? 'from the failed step' : 'from the start';
    await this.deps.log?.(
      `Job ${retried.job_id} retried ${where} by ${who} via ${source === 'cli' ? 'the CLI' : 'POST /jobs/{id}/retry'}: job ${job.job_id}`,
      { job_id: job.job_id, retry_of: retried.job_id, flow_id: job.flow_id, pipeline_id: job.pipeline_id, trigger: 'retry', from },
      user,
    );
    const starter = this.deps.starter();
    if (job.flow_id !== null) starter.runNextQueued(job.flow_id);
    else starter.start(job.job_id);
    return { job, retried, from };
  }

  /** Failed or cancelled, and not retried already (a retry whose job never got stored does not count). */
  private async checkRetryable(job: JobRecord): Promise<void> {
    if (!RETRYABLE.has(job.status))
      throw apiError('job_not_retryable', {
        message: `Job ${job.job_id} is ${job.status}; only a failed or cancelled job can be retried`,
        data: { job_id: job.job_id, job_status: job.status },
      });
    if (typeof job.retried_by === 'number' && (await this.deps.jobs.exists(job.retried_by))) throw this.alreadyRetried(job, job.retried_by);
  }

  private alreadyRetried(job: JobRecord, retriedBy: number) {
    return apiError('job_already_retried', {
      message: `Job ${job.job_id} was already retried by job ${retriedBy}; if that failed too, retry job ${retriedBy}`,
      data: { job_id: job.job_id, retried_by: retriedBy },
    });
  }

  /**
   * Where a retry from the failed step starts: the failed run's checkpoint and the claims it
   * gave back. A run with no checkpoint failed before its first step ended, so its retry
   * starts at the first step, as from the start; unless it ran before checkpoints were kept.
   */
  private resumeOf(job: JobRecord): JobRecord['resume'] | undefined {
    const checkpoint = job.checkpoint;
    const unavailable = (why: string) =>
      apiError('retry_input_unavailable', {
        message: `Job ${job.job_id}: ${why}; retry it with from=start`,
        data: { job_id: job.job_id },
      });
    if (!checkpoint) {
      if (job.steps.some((s) => s.status === 'completed')) throw unavailable('it ran before failed steps’ inputs were kept');
      return undefined;
    }
    if (checkpoint.input === null)
      throw unavailable(`the input of its failed step (${checkpoint.count} items) was larger than the 4 MiB a job keeps for a retry`);
    return { ...checkpoint, claims: job.released_claims ?? [] };
  }
}
