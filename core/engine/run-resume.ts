import type { DataPacket } from '../kernel/contributions.js';
import type { JobsService } from '../jobs/service.js';
import type { JobRecord } from '../jobs/model.js';
import type { Checkpoints } from './checkpoint.js';
import type { RunProgress } from './run-progress.js';
import { removedStepReason } from './review.js';

/** Where a run starts: its plan's first step with nothing, or a retry's failed step with that step's input. */
export interface RunStart {
  index: number;
  packets: DataPacket[];
  /** Items the retried run had given back that another run has taken (and done) since. */
  takenMeanwhile: string[];
}

/**
 * A retry from the failed step (POST /jobs/{id}/retry): the step the retried run failed at,
 * found in the flow as it is now (an ephemeral workflow's by its place), given the input
 * it had then. The items that run gave back are claimed again for this one; an item
 * another run has claimed since is left out (that run did it), so nothing is done twice.
 * The run's checkpoint starts as the retried one's, so a retry of this run resumes too.
 */
export async function runStart(
  deps: { jobs: JobsService; checkpoints: Checkpoints },
  job: JobRecord,
  plan: ReadonlyArray<{ flowStepId: string }>,
  progress: RunProgress,
  identity: (packet: DataPacket) => string,
): Promise<RunStart> {
  const resume = job.resume;
  if (!resume) return { index: 0, packets: [], takenMeanwhile: [] };
  const index = job.workflow ? resume.index : plan.findIndex((s) => s.flowStepId === resume.flow_step_id);
  if (index < 0 || index >= plan.length) {
    // A run going on after its wait (a decision raced the step's removal) or a retry.
    if (job.review_resume) throw new Error(removedStepReason(job.job_id, job.review?.position ?? resume.index + 1));
    throw new Error(`the step job ${job.retry_of} failed at is no longer in the flow; retry it from the start instead`);
  }
  const input = deps.checkpoints.input(resume);
  if (input === null)
    throw new Error(
      job.review_resume
        ? `the input of the step job ${job.job_id} waited at was too large to keep; run the flow again`
        : `the input of the step job ${job.retry_of} failed at was too large to keep; retry it from the start`,
    );
  const taken = new Set<string>();
  for (const claim of resume.claims) {
    const mine = await deps.jobs.claimItem({ ...claim, flow_id: job.flow_id, pipeline_id: job.pipeline_id, job_id: job.job_id });
    if (mine) progress.claimed(claim);
    else taken.add(claim.item_id);
  }
  const packets = taken.size ? input.filter((p) => !taken.has(identity(p))) : input;
  const step = plan[index]!;
  await progress.resumeAt({ ...deps.checkpoints.at(step.flowStepId, index, packets), done: resume.done });
  return { index, packets, takenMeanwhile: [...taken] };
}
