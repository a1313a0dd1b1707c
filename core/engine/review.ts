import { randomBytes } from 'node:crypto';
import type { Clock } from '../kernel/clock.js';
import type { DataPacket, ReviewDecision, StepWaitRequest } from '../kernel/contributions.js';
import { apiError } from '../errors/catalogue.js';
import type { JobsService } from '../jobs/service.js';
import type { DecidedItem, JobRecord, JobReview, ReviewItem } from '../jobs/model.js';
import { recordPackets } from './step-record.js';
import { reviewTokens, type TokenPurpose } from './review-token.js';
import type { HostVault } from '../security/vault.js';

/** How much of each waiting item's packet the job keeps for the reviewer (bytes of JSON). */
const ITEM_RECORD_BYTES = 32 * 1024;

/** Who restarts a job whose wait ended: its flow's queue, or at once (an ephemeral workflow). */
export interface ReviewStarter {
  runNextQueued(flowId: number): void;
  start(jobId: number): unknown;
}

/** What a decision did: the job as written, the items it decided, and whether the run goes on. */
export interface DecisionResult {
  job: JobRecord;
  decided: string[];
  pending: number;
  resumed: boolean;
}

type Identity = (packet: DataPacket) => string;
type Title = (packet: DataPacket) => string | null;

/**
 * A run waiting at a step (approval) is state in the store, not a timer: the job is
 * `waiting` with its review (the step, each item with its packet and decision, the
 * timeout) and its checkpoint (the step's input, sealed). A decision is a write
 * conditional on the review's version, so two hosts (or two reviewers) never both end a
 * wait; the write that decides the last item puts the job back to `pending` with the
 * step as its resume point, and whichever host made it starts the run (the engine's sweep
 * starts it should that host die first). Timeouts are decided by the same sweep, on any host.
 */
export class ReviewService {
  private readonly tokens: ReturnType<typeof reviewTokens>;

  constructor(
    private readonly deps: {
      jobs: JobsService;
      clock: Clock;
      vault: HostVault;
      starter: () => ReviewStarter;
      log: (level: 'info' | 'warning', message: string, context: Record<string, unknown>) => Promise<void>;
      /** Whether the step a job waits at is still in its flow (an ephemeral workflow's always is). */
      stepInFlow: (job: JobRecord) => Promise<boolean>;
    },
  ) {
    this.tokens = reviewTokens(deps.vault);
  }

  /** The review a step's wait starts: its undecided items (a retry's decided ones are not asked again). */
  begin(
    step: { flowStepId: string; index: number },
    packets: readonly DataPacket[],
    request: StepWaitRequest,
    decidedBefore: (packet: DataPacket) => ReviewDecision | null,
    identity: Identity,
    title: Title,
  ): JobReview {
    const now = this.deps.clock.now();
    const timeoutAt = request.timeoutMinutes === null ? null : new Date(now.getTime() + request.timeoutMinutes * 60_000);
    const linkEnd = new Date(now.getTime() + request.linkHours * 3_600_000);
    const items: ReviewItem[] = packets
      .filter((p) => decidedBefore(p) === null)
      .map((p) => ({
        item_id: identity(p),
        title: title(p),
        packet: recordPackets([p], ITEM_RECORD_BYTES),
        decision: null,
        decided_at: null,
        decided_by: null,
      }));
    return {
      flow_step_id: step.flowStepId,
      index: step.index,
      position: step.index + 1,
      mode: request.mode,
      since: now,
      timeout_at: timeoutAt,
      on_timeout: request.onTimeout,
      link_expires_at: timeoutAt && timeoutAt < linkEnd ? timeoutAt : linkEnd,
      nonce: randomBytes(16).toString('base64url'),
      items,
      version: 0,
    };
  }

  /** The signed one-time token of a waiting job's link (`review`) or webhook URL (`webhook`). */
  token(job: Pick<JobRecord, 'job_id'>, review: JobReview, purpose: TokenPurpose): string {
    return this.tokens.sign(job.job_id, purpose, review.nonce, review.link_expires_at);
  }

  /**
   * POST /jobs/{id}/approve or /reject (and the link, the webhook, a timeout): `items`
   * names item ids (none: every pending item). Refused when the job is not waiting, or
   * names an item the wait does not hold (or a webhook-mode wait is decided item by item).
   */
  async decide(jobId: number, decision: ReviewDecision, items: readonly string[] | null, by: string): Promise<DecisionResult> {
    for (;;) {
      const job = await this.deps.jobs.get(jobId);
      const review = this.waitingReview(job);
      const chosen = this.chosen(job, review, items);
      await this.refuseRemovedStep(job, review);
      const now = this.deps.clock.now();
      const nextItems = review.items.map((item) =>
        chosen.has(item.item_id) && item.decision === null ? { ...item, decision, decided_at: now, decided_by: by } : item,
      );
      const pending = nextItems.filter((i) => i.decision === null).length;
      const ended = pending === 0 ? { ended_at: now, ended_by: endedBy(by) } : {};
      const next: JobReview = { ...review, items: nextItems, version: review.version + 1, ...ended };
      const decided = [
        ...(job.decided ?? []),
        ...nextItems
          .filter((i, n) => i.decision !== null && review.items[n]!.decision === null)
          .map((i): DecidedItem => ({ flow_step_id: review.flow_step_id, item_id: i.item_id, decision: i.decision! })),
      ];
      const written = await this.deps.jobs.writeReview(jobId, review.version, next, decided, pending === 0);
      if (!written) continue; // another decision came first: read it again
      const names = [...chosen].filter((id) => review.items.some((i) => i.item_id === id && i.decision === null));
      await this.deps.log(
        'info',
        `Job ${jobId}: ${names.length} item${names.length === 1 ? '' : 's'} ${decision} by ${by} at step ${review.position}${pending ? `; ${pending} still waiting` : '; the run goes on'}`,
        { job_id: jobId, flow_id: job.flow_id, step: review.position, decision, items: names.slice(0, 100), decided_by: by },
      );
      if (pending === 0) this.restart(written);
      return { job: written, decided: names, pending, resumed: pending === 0 };
    }
  }

  /**
   * A wait whose step was removed from the flow cannot go on: the job fails with that
   * reason (rather than at its resume, after the decision said the run goes on), and the
   * decision is refused with review_step_removed.
   */
  private async refuseRemovedStep(job: JobRecord, review: JobReview): Promise<void> {
    if (await this.deps.stepInFlow(job)) return;
    const reason = removedStepReason(job.job_id, review.position);
    if (await this.deps.jobs.failWaiting(job.job_id, reason))
      await this.deps.log('warning', reason, { job_id: job.job_id, flow_id: job.flow_id, step: review.position });
    throw apiError('review_step_removed', { message: reason, data: { job_id: job.job_id, job_status: 'failed' } });
  }

  /** A link's use (GET page's form, or a POST): checked, recorded as used in the store, then the decision on every pending item. */
  async useLink(jobId: number, token: string, decision: ReviewDecision): Promise<DecisionResult> {
    const job = await this.checkToken(jobId, token, 'review');
    return this.decide(job.job_id, decision, null, 'link');
  }

  /** A delivery to a webhook-mode wait: its payload merged into the run's engine_data, every pending item approved. */
  async deliver(jobId: number, token: string, payload: Record<string, unknown>): Promise<DecisionResult> {
    const job = await this.checkToken(jobId, token, 'webhook');
    await this.deps.jobs.mergeEngineData(job.job_id, payload);
    return this.decide(job.job_id, 'approved', null, 'webhook');
  }

  /** Whether a token is valid for this job now (the GET page shows the choice only then); throws the refusal otherwise. */
  async peek(jobId: number, token: string): Promise<JobRecord> {
    const claims = this.tokens.verify(token, jobId, 'review', this.deps.clock.now());
    if (await this.deps.jobs.tokenUsed(`review:${claims.nonce}`)) throw apiError('review_link_used', { data: { job_id: jobId } });
    const job = await this.deps.jobs.get(jobId);
    const review = this.waitingReview(job);
    if (review.nonce !== claims.nonce) throw apiError('review_link_used', { data: { job_id: jobId } });
    return job;
  }

  /**
   * The sweep (any host): waits past their timeout get their outcome on every pending
   * item. Returns the jobs it decided.
   */
  async timeouts(): Promise<number[]> {
    const due = await this.deps.jobs.waitingTimedOut(this.deps.clock.now());
    const decided: number[] = [];
    for (const job of due) {
      const outcome: ReviewDecision = job.review?.on_timeout === 'approve' ? 'approved' : 'rejected';
      try {
        await this.decide(job.job_id, outcome, null, 'timeout');
        decided.push(job.job_id);
      } catch {
        // Decided or cancelled meanwhile by someone else: nothing left to time out.
      }
    }
    return decided;
  }

  /** A wait's end: the run goes on from its step (the flow's queue keeps one run per flow). */
  private restart(job: JobRecord): void {
    const starter = this.deps.starter();
    if (job.flow_id !== null) starter.runNextQueued(job.flow_id);
    else starter.start(job.job_id);
  }

  /** The token checked (signature, job, purpose, expiry, this wait), then its one use recorded in the store. */
  private async checkToken(jobId: number, token: string, purpose: TokenPurpose): Promise<JobRecord> {
    const claims = this.tokens.verify(token, jobId, purpose, this.deps.clock.now());
    // A link used before says so, whatever the job has become since (not job_not_waiting).
    if (await this.deps.jobs.tokenUsed(`${purpose}:${claims.nonce}`)) throw apiError('review_link_used', { data: { job_id: jobId } });
    const job = await this.deps.jobs.get(jobId);
    const review = this.waitingReview(job);
    if (review.nonce !== claims.nonce) throw apiError('review_link_used', { data: { job_id: jobId } });
    if (purpose === 'webhook' && review.mode !== 'webhook')
      throw apiError('review_link_invalid', { message: `Job ${jobId} waits for review, not for a webhook delivery` });
    if (!(await this.deps.jobs.useToken(`${purpose}:${claims.nonce}`, jobId, this.deps.clock.now())))
      throw apiError('review_link_used', { data: { job_id: jobId } });
    return job;
  }

  /**
   * A waiting job for GET /jobs/{id}/review-links: when its links have expired (and the
   * wait has not timed out), a fresh pair is issued first, for as long as the first ones
   * lived (capped by the timeout). The new nonce makes the old links unusable.
   */
  async withLiveLinks(jobId: number): Promise<JobRecord & { review: JobReview }> {
    for (;;) {
      const job = await this.waiting(jobId);
      const review = job.review;
      const now = this.deps.clock.now();
      if (review.link_expires_at > now || (review.timeout_at && review.timeout_at <= now)) return job;
      const life = Math.max(review.link_expires_at.getTime() - review.since.getTime(), 60_000);
      const end = new Date(now.getTime() + life);
      const next: JobReview = {
        ...review,
        nonce: randomBytes(16).toString('base64url'),
        link_expires_at: review.timeout_at && review.timeout_at < end ? review.timeout_at : end,
        version: review.version + 1,
      };
      const written = await this.deps.jobs.writeReview(jobId, review.version, next, job.decided ?? [], false);
      if (!written) continue; // decided or renewed meanwhile: read it again
      await this.deps.log(
        'info',
        `Job ${jobId}: its review links had expired; new ones issued until ${next.link_expires_at.toISOString()}`,
        {
          job_id: jobId,
          flow_id: job.flow_id,
        },
      );
      return written as JobRecord & { review: JobReview };
    }
  }

  /** A waiting job (job_not_waiting otherwise). */
  async waiting(jobId: number): Promise<JobRecord & { review: JobReview }> {
    const job = await this.deps.jobs.get(jobId);
    this.waitingReview(job);
    return job as JobRecord & { review: JobReview };
  }

  private waitingReview(job: JobRecord): JobReview {
    if (job.status !== 'waiting' || !job.review)
      throw apiError('job_not_waiting', {
        message: `Job ${job.job_id} is ${job.status}; only a waiting job can be approved or rejected`,
        data: { job_id: job.job_id, job_status: job.status },
      });
    return job.review;
  }

  /** The item ids a decision names (all pending when none), each known to this wait. */
  private chosen(job: JobRecord, review: JobReview, items: readonly string[] | null): Set<string> {
    if (items === null || items.length === 0) return new Set(review.items.filter((i) => i.decision === null).map((i) => i.item_id));
    const known = new Set(review.items.map((i) => i.item_id));
    const unknown = [...new Set(items)].filter((id) => !known.has(id));
    if (unknown.length)
      throw apiError('review_items_unknown', {
        message: `Job ${job.job_id} does not wait for ${unknown.length === 1 ? 'item' : 'items'} ${unknown.slice(0, 10).join(', ')}`,
        data: { job_id: job.job_id, unknown_items: unknown.slice(0, 100) },
      });
    return new Set(items);
  }
}

/** Why a wait whose approval step left the flow cannot go on (also the resume's error, run-resume.ts). */
export function removedStepReason(jobId: number, position: number): string {
  return `The approval step job ${jobId} waited at (step ${position}) was removed from the flow while the run waited; the job failed. Run the flow again.`;
}

function endedBy(by: string): JobReview['ended_by'] {
  return by === 'timeout' ? 'timeout' : by === 'webhook' ? 'webhook' : 'decided';
}
