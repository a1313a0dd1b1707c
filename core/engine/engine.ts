import { createHash } from 'node:crypto';
import type { Clock } from '../kernel/clock.js';
import { actingUser } from '../kernel/acting-user.js';
import type {
  DataPacket,
  HandlerContext,
  HandlerCredentials,
  HandlerDefinition,
  ReviewDecision,
  StepReport,
  StepWait,
  StepWaitRequest,
} from '../kernel/contributions.js';
import { callMeasuringHook, isTapped, type HookCatalogue, type StepTiming } from '../kernel/hooks.js';
import type { StepInfo } from '../../sdk/contract/engine-events.js';
import type { EngineHooks } from './engine-hooks.js';
import type { Logger } from '../kernel/logger.js';
import { htmlToPlainText } from '../kernel/post-text.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import type { GuardedFetch } from '../security/guarded-fetch-types.js';
import type { ContentStore } from '../content/model.js';
import { contentWrittenAs } from '../content/owner-content.js';
import { publishWithinLimit } from './text-limit.js';
import type { Capability } from '../kernel/principal.js';
import { apiError } from '../errors/catalogue.js';
import { isApiError } from '../errors.js';
import type { FlowsService } from '../flows/service.js';
import type { FlowRunMarks } from '../flows/run-marks.js';
import type { PipelineRecord } from '../pipelines/model.js';
import type { FlowRecord } from '../flows/model.js';
import type { Batcher } from '../store/batcher.js';
import { runEndings, type RunEnd } from './run-endings.js';
import { fetchCap } from './fetch-cap.js';
import { flowConfig } from '../flows/view.js';
import type { JobsService } from '../jobs/service.js';
import {
  STEP_ITEMS_KEPT,
  type JobRecord,
  type JobRevision,
  type JobStatus,
  type RanStep,
  type StepItem,
  type StepOutcome,
  type WorkflowStep,
} from '../jobs/model.js';
import { HandlerSecrets } from '../flows/handler-secrets.js';
import { DEFAULT_STEP_RECORD_BYTES, recordPackets } from './step-record.js';
import { FlowQueues } from './flow-queue.js';
import { DEFAULT_RUN_LEASE_SECONDS, holdRun, type RunHold } from './run-lease.js';
import type { Checkpoints } from './checkpoint.js';
import { RunProgress } from './run-progress.js';
import { runStart } from './run-resume.js';
import { ReviewService } from './review.js';
import type { HostVault } from '../security/vault.js';

/**
 * Where the engine's log entries go (the logs domain writes them; the host logger too).
 * `context.agent_id`, set when the run's pipeline carries an agent, is the entry's
 * agent_id (GET /logs?agent_id=N), not a context field.
 */
export type EngineLog = (level: 'debug' | 'info' | 'warning' | 'error', message: string, context: Record<string, unknown>) => Promise<void>;

export interface EngineDeps {
  jobs: JobsService;
  flows: FlowsService;
  /** Flows' running marks and run outcomes (one run per flow at a time). */
  runMarks: FlowRunMarks;
  catalogue: HandlerCatalogue;
  hooks: HookCatalogue;
  /** The engine's own hooks (step and job events): it alone fires them. */
  events: EngineHooks;
  clock: Clock;
  fetch: GuardedFetch;
  content: ContentStore;
  /** A flow's owner as they are now: a run writes content with their capabilities (see owner-content.ts). */
  users: { principalFor(userId: number, via: 'local'): Promise<{ can(capability: Capability): boolean } | null> };
  logger: Logger;
  log: EngineLog;
  /** Resolves when every entry `log` was given is stored (entries are written in batches). */
  flushLog?: () => Promise<void>;
  /** Where a handler's credentials come from (its context's `credentials`). */
  credentials: { forRun(handler: HandlerDefinition<object>): Promise<HandlerCredentials | null> };
  /**
   * A run's lease (FLOWHOST_RUN_LEASE_SECONDS): its job's and flow's hold, renewed every
   * third of it while it runs; not renewed for this long, its host is taken for dead.
   */
  runLeaseSeconds?: number;
  /** Whether item-level detail (debug entries) is wanted; when false the engine does not build it. */
  itemDetail?: () => boolean;
  /** How much of each step's input and of its output a job keeps (bytes of JSON; FLOWHOST_STEP_RECORD_BYTES). */
  stepRecordBytes?: number;
  /** Where a run's checkpoints are sealed (a retry starts from one). */
  checkpoints: Checkpoints;
  /** The host's vault: waiting jobs' links are signed with a key derived from it. */
  vault: HostVault;
  /** The core API's base URL as senders see it (a waiting job's links); absent: paths only. */
  apiBase?: () => string;
}

/** A step that asked to wait: where, with what, and how. */
interface Waiting {
  index: number;
  step: PlannedStep;
  input: DataPacket[];
  request: StepWaitRequest;
}

/** What one step's run saw beyond its packets (fetch steps: items skipped as processed). */
interface StepStats {
  skipped: number;
  /** Publish and update steps of a retry: items the retried run had done, passed on without doing them again. */
  reused: number;
}

/** One step as the engine runs it, from a flow or an ephemeral workflow. */
interface PlannedStep {
  flowStepId: string;
  stepType: string;
  handlerSlug: string | null;
  handlerConfig: Record<string, unknown>;
  enabled: boolean;
  ai?: { provider?: string; model?: string; systemPrompt?: string; userMessage?: string };
  /** The pipeline step's own settings (PUT /pipelines/steps/{id}/config): a step type without a handler reads them (approval's timeout). */
  settings?: Record<string, unknown>;
}

class StepFailure extends Error {}

/** One step of a run as the engine records it: the job, the plan and the step's place, label and log context, the run's outcomes so far. */
interface RecordedStep {
  job: JobRecord;
  plan: PlannedStep[];
  index: number;
  step: PlannedStep;
  label: string;
  stepContext: Record<string, unknown>;
  steps: StepOutcome[];
  /** The first step the run runs: its record carries the flow as it ran. */
  firstRun: number;
  /** The flow's and pipeline's revisions the run ran (written with the first step's record). */
  revision: JobRevision;
}

/** What a step outcome records of a refusal with a code (an ApiError): the code, and what a settings refusal lacks. */
function refusal(error: unknown): Pick<StepOutcome, 'error_code' | 'missing_settings'> {
  if (!isApiError(error)) return {};
  const missing = error.data.missing_settings;
  return { error_code: error.code, ...(Array.isArray(missing) ? { missing_settings: missing.map(String) } : {}) };
}

/** Where a step's item-level lines go: its label and log context, and its counters. */
interface StepTrace {
  label: string;
  context: Record<string, unknown>;
  stats: StepStats;
  /** What the step type's run reported for its outcome (an ai step's model and usage). */
  report: StepReport;
  /** The step's place in the plan, and what the run has done (claims, published items). */
  index: number;
  progress: RunProgress;
  /** A publish or update step's outputs so far (a failed step's record lists what it published before failing). */
  partial: DataPacket[];
  /** Whether the run lost its job (cancelled, or taken for dead): a publish stops before its next item. */
  lost: () => boolean;
}

/** `identity "title"` for an item-level line. */
function describePacket(packet: DataPacket, identity = packetIdentity(packet)): string {
  const title = packetTitle(packet);
  return title === null ? identity : `${identity} "${title}"`;
}

type Published = NonNullable<StepOutcome['published']>[number] & { text?: string };

/**
 * The remote ids, URLs and shortening a publish handler reported in its packets' metadata
 * (and the text it published when it shortened it: `data.published_text`).
 */
function publishedOf(packets: DataPacket[]): Published[] {
  return packets
    .filter((p) => typeof p.metadata?.published_id === 'string')
    .map((p) => {
      const shortened = p.metadata.shortened === true;
      const text = shortened && typeof p.data?.published_text === 'string' ? p.data.published_text : undefined;
      return {
        id: String(p.metadata.published_id),
        url: typeof p.metadata.published_url === 'string' ? p.metadata.published_url : null,
        shortened,
        ...(text !== undefined ? { text } : {}),
      };
    });
}

const TITLE_LENGTH = 120;

/**
 * The text of some HTML, or at least its first `enough` characters. Content can be a whole
 * article and html-to-text takes over a millisecond per kilobyte, so a growing prefix is
 * converted, not the whole; the prefix's last word is dropped, as the cut may have split it,
 * a tag or an entity.
 */
function textStart(html: string, enough: number): string {
  for (let size = 4096; ; size *= 4) {
    if (size >= html.length) return htmlToPlainText(html);
    const text = htmlToPlainText(html.slice(0, size));
    const whole = text.slice(0, Math.max(0, text.lastIndexOf(' '))).trimEnd();
    if (whole.length > enough) return whole;
  }
}

/**
 * A packet's title for a log line and a job's items: `data.title`, else the start of its
 * content, as the text a reader sees (entities decoded, no markup or script); null when none.
 */
export function packetTitle(packet: DataPacket): string | null {
  const data = packet.data ?? {};
  const raw = typeof data.title === 'string' && data.title.trim() ? data.title : typeof data.content === 'string' ? data.content : null;
  if (raw === null) return null;
  const flat = textStart(raw, TITLE_LENGTH);
  if (!flat) return null;
  return flat.length > TITLE_LENGTH ? `${flat.slice(0, TITLE_LENGTH - 1)}…` : flat;
}

/**
 * A packet's identity as the engine claims it: metadata.item_id once claimed, else the
 * item it came from (`metadata.source_item_id`, which publish handlers such as cms keep),
 * else the identity the engine would give it.
 */
export function packetIdentity(packet: DataPacket): string {
  for (const value of [packet.metadata?.item_id, packet.metadata?.source_item_id]) if (typeof value === 'string' && value) return value;
  return itemIdentity(packet);
}

/** The identities of the packets a step passed on (of a failed step: those it was given). */
function itemsOf(packets: DataPacket[]): StepItem[] {
  return packets.slice(0, STEP_ITEMS_KEPT).map((p) => ({ item_id: packetIdentity(p), title: packetTitle(p) }));
}

/** The flow's steps as a run planned them, secrets masked: what the job keeps of its configuration. */
function ranWith(plan: PlannedStep[]): RanStep[] {
  return plan.map((step) => ({
    flow_step_id: step.flowStepId,
    step_type: step.stepType,
    handler_slug: step.handlerSlug,
    enabled: step.enabled,
    handler_config: HandlerSecrets.mask({
      ...step.handlerConfig,
      ...(step.ai ? Object.fromEntries(Object.entries(step.ai).filter(([, v]) => v !== undefined)) : {}),
    }),
  }));
}

/** JSON with object keys sorted: two records compare equal whatever order a store kept their keys in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The revisions a flow's run ran (null for an ephemeral workflow, or records older than revisions). */
function revisionOf(flow: FlowRecord | null, pipeline: PipelineRecord | null): JobRevision {
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  return { revision: number(flow?.revision), pipeline_revision: number(pipeline?.revision) };
}

/** The outcome line's tail: what a publish step published and what it shortened. */
function publishedText(published: Published[]): string {
  if (!published.length) return '';
  const shown = published.slice(0, 10).map((p) => (p.url ? `${p.id} ${p.url}` : p.id));
  let text = `; published ${published.length}: ${shown.join(', ')}${published.length > shown.length ? `, and ${published.length - shown.length} more` : ''}`;
  for (const p of published.filter((x) => x.shortened).slice(0, 10))
    text += `; ${p.id} shortened${p.text !== undefined ? ` to "${p.text}"` : ''}`;
  return text;
}

function itemIdentity(packet: DataPacket): string {
  const meta = packet.metadata ?? {};
  const data = packet.data ?? {};
  const candidate = meta.item_id ?? data.guid ?? data.link ?? data.id ?? data.url;
  if (typeof candidate === 'string' || typeof candidate === 'number') return String(candidate).slice(0, 500);
  return `sha256:${createHash('sha256').update(JSON.stringify(data)).digest('hex')}`;
}

/**
 * The execution engine: a job runs its steps in order, passing data packets along.
 * Fetch steps claim each item they pass on (so the next run does not repeat it); a job
 * that fails releases its claims. A handler that throws fails the job, never the process.
 */
export class Engine {
  /** Runs this engine started by itself (queued webhook jobs), for a graceful stop. */
  private readonly chained = new Set<Promise<unknown>>();
  /** Queued webhook jobs, started one after another per flow (see flow-queue.ts). */
  private readonly queues: FlowQueues;

  /** The holds of the runs under way in this process, by job: a cancel here stops its run at once. */
  private readonly holds = new Map<number, RunHold>();

  /** Run ends, written together when several come in one turn (see run-endings.ts). */
  private readonly endings: Batcher<RunEnd, void>;

  /** Waits at approval steps: decisions, signed links, timeouts (review.ts). */
  readonly reviews: ReviewService;

  /** What `ctx.wait` answered in this process: a step's run returning one pauses the job. */
  private readonly waits = new WeakSet<object>();

  constructor(private readonly deps: EngineDeps) {
    this.endings = runEndings(deps);
    this.reviews = new ReviewService({
      jobs: deps.jobs,
      clock: deps.clock,
      vault: deps.vault,
      starter: () => this,
      log: (level, message, context) => deps.log(level, message, context),
      stepInFlow: (job) => this.stepInFlow(job),
    });
    this.queues = new FlowQueues(
      {
        runningJobOf: (flowId) => deps.runMarks.runningJobOf(flowId, this.staleBefore(deps.clock.now())),
        oldestQueued: (flowId) => deps.jobs.oldestQueued(flowId),
        run: (jobId, flowId) => this.run(jobId, flowId),
        failed: (flowId, error) => deps.logger.error({ flow_id: flowId, err: error }, 'Starting a queued webhook job failed'),
      },
      (loop) => {
        this.chained.add(loop);
        void loop.finally(() => this.chained.delete(loop));
      },
    );
  }

  /** Runs this engine started that have not ended (a graceful stop reports those it gave up on). */
  running(): number {
    return this.chained.size;
  }

  /** A graceful stop begins: runs under way end, no queued webhook job starts here any more. */
  stopQueues(): void {
    this.queues.stop();
  }

  /** Resolves when every queued run this engine started has ended. */
  async drain(): Promise<void> {
    while (this.chained.size) await Promise.allSettled([...this.chained]);
  }

  /**
   * Runs a pending job to its end; returns its final status (null when another worker had
   * it, 'queued' when a webhook job waits for its flow's current run). `queuedOf`: the
   * flow whose queue the job was taken from (its claim and the flow's mark go together).
   */
  async run(jobId: number, queuedOf?: number): Promise<JobStatus | 'queued' | null> {
    const { jobs } = this.deps;
    const taken = queuedOf !== undefined && jobs.bulkIsAtomic ? await this.claimAndLock(jobId, queuedOf) : await this.claimThenLock(jobId);
    if (!taken) return null;
    const { job, flow } = taken;
    // Every line of a run of an agent's pipeline is that agent's (the spec's per-agent logs).
    // Only the log scope: a failed read leaves the lines unscoped, never the run failed.
    // A flow's run reads its pipeline once, for the agent here and for the plan below (it
    // was read twice, each a store call of a drained webhook run). A failed read is null:
    // the lines go unscoped and the plan reads it again, failing the run if it fails again.
    const pipeline = job.workflow || job.pipeline_id === null ? null : await this.deps.flows.pipeline(job.pipeline_id).catch(() => null);
    const agentId = job.workflow
      ? await this.deps.flows.agentOf(job.pipeline_id).catch(() => null)
      : typeof pipeline?.agent_id === 'number'
        ? pipeline.agent_id
        : null;
    const context = {
      job_id: job.job_id,
      flow_id: job.flow_id,
      pipeline_id: job.pipeline_id,
      ...(agentId !== null ? { agent_id: agentId } : {}),
    };
    if (job.flow_id !== null && !flow) {
      // An accepted webhook (or a retry) was promised a run: it waits for the flow instead of being skipped.
      if (job.source === 'webhook' || job.queued === true) return this.queue(job);
      await jobs.finish(job.job_id, 'skipped', { steps: [], error: 'The flow was already running; this run was skipped' });
      await this.deps.log('warning', `Flow ${job.flow_id} is already running; job ${job.job_id} skipped`, context);
      return 'skipped';
    }
    const runStarted = process.hrtime.bigint();
    // The run's lease, renewed until its end is written: a host that dies stops renewing it.
    const hold = holdRun(
      { ...this.deps, onError: (err) => this.deps.logger.warn({ err, job_id: job.job_id }, 'A run lease renewal failed') },
      this.leaseSeconds,
      job.job_id,
      job.flow_id,
    );
    this.holds.set(job.job_id, hold);
    // A run going on after a wait keeps the records of the steps it ran before it.
    const steps: StepOutcome[] = job.review_resume ? [...job.steps] : [];
    const progress = new RunProgress(this.deps, job.job_id);
    let status: JobStatus = 'completed';
    let error: string | null = null;
    let waiting: Waiting | null = null;
    try {
      const content = await this.contentOf(job, flow);
      const plan = await this.plan(job, flow, pipeline);
      await this.deps.log('info', `Job ${job.job_id} started (${plan.length} step${plan.length === 1 ? '' : 's'})`, context);
      // A retry from the failed step starts there with that step's input (run-resume.ts);
      // a run whose wait ended goes on from the step it waited at, with the claims it made.
      if (job.review_resume) for (const claim of await this.deps.jobs.claimsOf(job.job_id)) progress.claimed(claim);
      const start = await runStart(this.deps, job, plan, progress, packetIdentity);
      if (job.resume) await this.logResume(job, plan, start, context);
      let packets: DataPacket[] = start.packets;
      let fetched = 0;
      // The first step that runs writes the flow's configuration as it ran along with its record;
      // a run going on after a wait keeps the one it started with (history is not rewritten),
      // and records the configuration it goes on with beside it when that differs.
      const revision = revisionOf(flow, pipeline);
      const firstRun = job.review_resume ? -1 : plan.findIndex((s, i) => i >= start.index && s.enabled);
      if (job.review_resume) await this.recordResumedWith(job, plan, revision, start.index);
      for (const [index, step] of plan.entries()) {
        if (index < start.index) continue;
        // The job is no longer this run's (cancelled, or failed while this host stalled): stop here.
        if (hold.lost) throw new StepFailure('The run lost its job (cancelled, or taken for dead); it stopped before this step');
        const label = `Step ${index + 1}/${plan.length} ${step.stepType}${step.handlerSlug ? ` (${step.handlerSlug})` : ''}`;
        const stepContext = {
          ...context,
          flow_step_id: step.flowStepId,
          step: index + 1,
          step_type: step.stepType,
          handler: step.handlerSlug,
        };
        if (!step.enabled) {
          await this.deps.log('info', `${label} is disabled; not run`, stepContext);
          continue;
        }
        const ran = await this.runRecorded(
          { job, plan, index, step, label, stepContext, progress, steps, firstRun, revision, content, lost: () => hold.lost },
          packets,
        );
        if (ran.wait) {
          waiting = { index, step, input: packets, request: ran.wait };
          status = 'waiting';
          break;
        }
        packets = ran.packets;
        fetched += ran.fetched;
        // The step's record is stored as it ends (a failed step's by runRecorded), with
        // the next step's checkpoint: a retry of this run starts there with these packets.
        const nextIndex = plan.findIndex((s, i) => i > index && s.enabled);
        const next = nextIndex < 0 ? null : { flowStepId: plan[nextIndex]!.flowStepId, index: nextIndex };
        await this.deps.jobs.recordSteps(
          job.job_id,
          steps,
          index === firstRun ? ranWith(plan) : undefined,
          progress.stepEnded(next, packets),
          index === firstRun ? revision : undefined,
        );
        // Nothing new came in: the rest of the pipeline has nothing to work on.
        if (step.stepType === 'fetch' && packets.length === 0 && plan.some((s) => s.stepType === 'fetch')) {
          const fetchesLeft = plan.slice(plan.indexOf(step) + 1).some((s) => s.enabled && s.stepType === 'fetch');
          if (!fetchesLeft) {
            status = 'completed_no_items';
            break;
          }
        }
      }
      if (status === 'completed' && plan.some((s, i) => i >= start.index && s.enabled && s.stepType === 'fetch') && fetched === 0)
        status = 'completed_no_items';
      if (waiting) {
        await this.pause(job, steps, waiting, progress, hold, context);
        return 'waiting';
      }
    } catch (failure) {
      status = 'failed';
      error = failure instanceof Error ? failure.message : String(failure);
    }
    await this.end({ job, status, steps, error, release: status === 'failed' ? progress.release() : undefined }, context, hold, runStarted);
    return status;
  }

  /**
   * A run's end: its closing line, then (one store call after the run's log lines are in,
   * see run-endings.ts) a failed run's claims but those of what it published, the final
   * state, the flow's outcome and its mark; then the flow's queue goes on and the job's
   * hook is called.
   */
  private async end(
    end: Omit<RunEnd, 'jobId' | 'flowId'> & { job: JobRecord },
    context: Record<string, unknown>,
    hold: RunHold,
    runStarted: bigint,
  ): Promise<void> {
    const { job, status, error } = end;
    // The closing line goes out with the run's other lines, in the same write, before the
    // final state: a run's log is complete whenever its job shows it ended.
    if (status === 'failed') await this.deps.log('error', `Job ${job.job_id} failed: ${error}`, context);
    else await this.deps.log('info', `Job ${job.job_id} ${status === 'completed' ? 'completed' : 'completed with no new items'}`, context);
    await this.endings
      .add({ jobId: job.job_id, flowId: job.flow_id, status, steps: end.steps, error, release: end.release })
      .finally(() => {
        hold.release();
        this.holds.delete(job.job_id);
      });
    if (job.flow_id !== null) this.runNextQueued(job.flow_id);
    const durationMs = Number(process.hrtime.bigint() - runStarted) / 1e6;
    if (status === 'failed')
      await this.deps.events.jobFailed.promise({
        jobId: job.job_id,
        flowId: job.flow_id,
        status,
        error: error ?? undefined,
        source: job.source,
        durationMs,
      });
    else await this.deps.events.jobFinished.promise({ jobId: job.job_id, flowId: job.flow_id, status, source: job.source, durationMs });
  }

  /**
   * One enabled step of a run, recorded: its start line, its hooks and handler, then its
   * outcome in the job's steps (completed, with what it published; or failed, with what
   * it was given and published before failing, stored at once) and its closing line. A
   * failure is thrown on as a StepFailure naming the step by position.
   */
  private async runRecorded(
    run: RecordedStep & { progress: RunProgress; content: ContentStore; lost: () => boolean },
    given: DataPacket[],
  ): Promise<{ packets: DataPacket[]; fetched: number; wait?: StepWaitRequest }> {
    const { job, index, step, label, stepContext, steps } = run;
    const started = this.deps.clock.now();
    const info: StepInfo = {
      jobId: job.job_id,
      flowId: job.flow_id,
      flowStepId: step.flowStepId,
      stepType: step.stepType,
      handlerSlug: step.handlerSlug,
    };
    const itemsIn = given.length;
    const stats: StepStats = { skipped: 0, reused: 0 };
    // What a step type's run adds to its outcome (an ai step's model, usage, latency).
    const report: StepReport = {};
    const partial: DataPacket[] = [];
    await this.deps.log('info', `${label} started with ${itemsIn} item${itemsIn === 1 ? '' : 's'}`, { ...stepContext, items_in: itemsIn });
    let packets = given;
    let fetched = 0;
    try {
      packets = await this.deps.events.stepStarting.promise(packets, info);
      const trace: StepTrace = { label, context: stepContext, stats, report, index, progress: run.progress, partial, lost: run.lost };
      const out = await this.runStep(job, step, packets, trace, run.content);
      if (!Array.isArray(out)) {
        // The step waits (approval): no outcome yet; it runs again with `given` once decided.
        await this.deps.log('info', `${label} waits (${out.wait.mode}) for ${itemsIn} item${itemsIn === 1 ? '' : 's'}`, {
          ...stepContext,
          status: 'waiting',
          items_in: itemsIn,
        });
        return { packets: given, fetched: 0, wait: out.wait };
      }
      packets = out;
      if (step.stepType === 'fetch') fetched = packets.length - itemsIn;
      packets = await this.deps.events.stepFinished.promise(packets, info);
    } catch (stepError) {
      await this.recordFailed(run, { started, given, partial, report }, stepError);
      throw new StepFailure(`${label} failed: ${stepError instanceof Error ? stepError.message : String(stepError)}`);
    }
    const published = publishedOf(packets);
    const finishedAt = this.deps.clock.now();
    // The job keeps ids, URLs and the shortened flag; the shortened text goes to the log line.
    const outcomePublished = published.map(({ id, url, shortened }) => ({ id, url, shortened }));
    steps.push({
      flow_step_id: step.flowStepId,
      step_type: step.stepType,
      handler_slug: step.handlerSlug,
      status: 'completed',
      items_in: itemsIn,
      items_out: packets.length,
      started_at: started,
      finished_at: finishedAt,
      ...(published.length ? { published: outcomePublished } : {}),
      ...(stats.reused ? { items_reused: stats.reused } : {}),
      position: index + 1,
      items: itemsOf(packets),
      input: recordPackets(given, this.recordBytes),
      output: recordPackets(packets, this.recordBytes),
      ...report,
    });
    const durationMs = finishedAt.getTime() - started.getTime();
    this.timed({
      jobId: job.job_id,
      flowId: job.flow_id,
      stepType: step.stepType,
      handlerSlug: step.handlerSlug,
      status: 'completed',
      durationMs,
      itemsIn,
      itemsOut: packets.length,
    });
    const skippedText =
      (stats.skipped ? ` (${stats.skipped} skipped as already processed)` : '') +
      (stats.reused ? ` (${stats.reused} done by job ${job.retry_of} before, not done again)` : '');
    await this.deps.log(
      'info',
      `${label} finished: ${itemsIn} in, ${packets.length} out${skippedText}, ${durationMs} ms${publishedText(published)}`,
      {
        ...stepContext,
        status: 'completed',
        items_in: itemsIn,
        items_out: packets.length,
        ...(stats.skipped ? { items_skipped: stats.skipped } : {}),
        duration_ms: durationMs,
        ...(published.length ? { published } : {}),
      },
    );
    if (this.itemDetail())
      for (const packet of packets)
        await this.deps.log('debug', `${label} item out: ${describePacket(packet)}`, {
          ...stepContext,
          item_id: packetIdentity(packet),
          title: packetTitle(packet),
        });
    return { packets, fetched };
  }

  /** A failed step's outcome, stored at once (with the flow as it ran when it was the first), and its closing line. */
  private async recordFailed(
    run: RecordedStep,
    at: { started: Date; given: DataPacket[]; partial: DataPacket[]; report: StepReport },
    stepError: unknown,
  ): Promise<void> {
    const { job, index, step, steps } = run;
    const reason = stepError instanceof Error ? stepError.message : String(stepError);
    const finishedAt = this.deps.clock.now();
    // What a publish step published before the item it failed at.
    const publishedBefore = publishedOf(at.partial).map(({ id, url, shortened }) => ({ id, url, shortened }));
    steps.push({
      flow_step_id: step.flowStepId,
      step_type: step.stepType,
      handler_slug: step.handlerSlug,
      status: 'failed',
      items_in: at.given.length,
      items_out: 0,
      started_at: at.started,
      finished_at: finishedAt,
      error: reason,
      ...refusal(stepError),
      ...(publishedBefore.length ? { published: publishedBefore } : {}),
      position: index + 1,
      items: itemsOf(at.given),
      input: recordPackets(at.given, this.recordBytes),
      ...at.report,
    });
    const first = index === run.firstRun;
    await this.deps.jobs.recordSteps(job.job_id, steps, first ? ranWith(run.plan) : undefined, undefined, first ? run.revision : undefined);
    const durationMs = finishedAt.getTime() - at.started.getTime();
    this.timed({
      jobId: job.job_id,
      flowId: job.flow_id,
      stepType: step.stepType,
      handlerSlug: step.handlerSlug,
      status: 'failed',
      durationMs,
      itemsIn: at.given.length,
      itemsOut: 0,
    });
    // By position, as the log lines name it: the flow step id is internal ("1_b64…_9").
    await this.deps.log('error', `${run.label} failed after ${durationMs} ms: ${reason}`, {
      ...run.stepContext,
      status: 'failed',
      items_in: at.given.length,
      items_out: 0,
      duration_ms: durationMs,
      error: reason,
    });
  }

  /** Hands a step's timing to whoever measures; a measuring tap that throws never fails the run. */
  private timed(timing: StepTiming): void {
    if (!isTapped(this.deps.hooks.stepTimed)) return;
    callMeasuringHook(this.deps.hooks.stepTimed, timing, (error) => this.deps.logger.warn({ err: error }, 'A stepTimed tap failed'));
  }

  /** The steps of a job: its flow's enabled steps in order, or its ephemeral workflow. */
  private async plan(job: JobRecord, locked: FlowRecord | null, read?: PipelineRecord | null): Promise<PlannedStep[]> {
    if (job.workflow) {
      return job.workflow.map((step: WorkflowStep, index) => ({
        flowStepId: `ephemeral_${job.job_id}_${index}`,
        stepType: step.type,
        handlerSlug: step.handler_slug ?? null,
        handlerConfig: this.deps.flows.secrets.open(step.handler_config ?? {}),
        enabled: true,
        ai:
          step.type === 'ai'
            ? { provider: step.provider, model: step.model, systemPrompt: step.system_prompt, userMessage: step.user_message }
            : undefined,
      }));
    }
    const flow = locked ?? (await this.deps.flows.get(job.flow_id!));
    // The pipeline `run` read for the job, unless the flow has moved to another since.
    const pipeline = read && read.pipeline_id === flow.pipeline_id ? read : await this.deps.flows.pipelineOf(flow);
    if (!pipeline) throw new Error(`Pipeline ${flow.pipeline_id} of flow ${flow.flow_id} no longer exists`);
    const config = flowConfig(flow, pipeline, 'stored');
    return pipeline.steps
      .slice()
      .sort((a, b) => a.execution_order - b.execution_order)
      .map((step) => {
        const entry = Object.values(config).find((c) => c.pipeline_step_id === step.pipeline_step_id)!;
        return {
          flowStepId: String(entry.flow_step_id),
          stepType: step.step_type,
          handlerSlug: (entry.handler_slug as string | null) ?? null,
          handlerConfig: this.deps.flows.secrets.open((entry.handler_config as Record<string, unknown>) ?? {}),
          enabled: entry.enabled !== false,
          settings: { ...step.config },
          ai:
            step.step_type === 'ai'
              ? {
                  provider: step.config.provider as string,
                  model: step.config.model as string,
                  systemPrompt: step.config.system_prompt as string,
                  userMessage: entry.user_message as string,
                }
              : undefined,
        };
      });
  }

  /**
   * One step, by its registered step type: a type with a handler type runs the flow
   * step's handler (fetch results are de-duplicated and claimed); any other runs the
   * type's own `run` (ai, or a plugin's new kind of step).
   */
  private async runStep(
    job: JobRecord,
    step: PlannedStep,
    packets: DataPacket[],
    trace: StepTrace,
    content: ContentStore,
  ): Promise<DataPacket[] | StepWait> {
    const type = this.deps.catalogue.stepType(step.stepType);
    if (!type) throw new Error(`Unknown step type '${step.stepType}' (no plugin registers it)`);
    const ctx = this.context(job, step, content);
    if (type.handlerType === null) {
      if (!type.run) throw new Error(`step type '${type.type}' has no run()`);
      const config = {
        ...step.settings,
        ...step.handlerConfig,
        ...(step.ai
          ? { provider: step.ai.provider, model: step.ai.model, system_prompt: step.ai.systemPrompt, user_message: step.ai.userMessage }
          : {}),
      };
      const out = await type.run(
        {
          ...ctx,
          config: Object.freeze(config),
          report: (details) => void Object.assign(trace.report, details),
          decisionOf: (packet) => this.decisionOf(job, step.flowStepId, packetIdentity(packet)),
          wait: (request) => {
            const wait: StepWait = Object.freeze({ wait: { ...request } });
            this.waits.add(wait);
            return wait;
          },
        },
        packets,
      );
      if (Array.isArray(out)) return out;
      if (!this.waits.has(out)) throw new Error(`step type '${type.type}' answered neither packets nor ctx.wait()`);
      return out;
    }
    if (!step.handlerSlug) throw new Error('no handler is configured for this step');
    const handler = this.deps.catalogue.handler(step.handlerSlug) as HandlerDefinition | undefined;
    if (!handler) throw new Error(`handler '${step.handlerSlug}' is not registered`);
    if (handler.type !== type.handlerType)
      throw new Error(`handler '${handler.slug}' is a ${handler.type} handler; a '${type.type}' step needs a ${type.handlerType} handler`);
    // A step stored while being set up (the admin client picks a handler with empty
    // settings) runs only once its handler has every required setting.
    const missing = this.deps.flows.missingSettings(handler.slug, step.handlerConfig);
    if (missing.length > 0) {
      const where =
        job.flow_id !== null ? `; set ${missing.length === 1 ? 'it' : 'them'} with PATCH /flows/steps/${step.flowStepId}/config` : '';
      throw apiError('handler_settings_incomplete', {
        message: `the ${handler.slug} handler lacks required settings: ${missing.join(', ')}${where}`,
        data: { missing_settings: missing },
      });
    }
    const handlerCtx = handler.auth ? this.context(job, step, content, await this.deps.credentials.forRun(handler)) : ctx;
    const settings = step.handlerConfig;
    switch (handler.type) {
      case 'fetch':
        return [...packets, ...(await this.claimNew(job, step, await handler.fetch(handlerCtx, settings), trace))];
      case 'publish':
        // The host holds each item to the handler's textLimit (text-limit.ts), one item at a time.
        return this.eachItem(packets, trace, (one) =>
          one.length === 1
            ? publishWithinLimit(handler, one[0]!, (fit) => handler.publish(handlerCtx, settings, fit))
            : handler.publish(handlerCtx, settings, one),
        );
      case 'update':
        return this.eachItem(packets, trace, (one) => handler.update(handlerCtx, settings, one));
    }
  }

  /**
   * A publish or update step, one item at a time: each item done is recorded as it is done,
   * so a failure at the third item leaves the first two published, claimed for good, and
   * not done again by a retry (which reuses what they passed on). Handlers still receive an
   * array (of one), so a handler written for several packets works unchanged.
   */
  private async eachItem(
    packets: DataPacket[],
    trace: StepTrace,
    call: (one: DataPacket[]) => Promise<DataPacket[]>,
  ): Promise<DataPacket[]> {
    // No items: the handler is called once with none, as it always was (it may publish on its own).
    if (packets.length === 0) return call([]);
    for (const [n, packet] of packets.entries()) {
      if (trace.lost()) throw new StepFailure(`The run lost its job (cancelled, or taken for dead); it stopped before item ${n + 1}`);
      const itemId = packetIdentity(packet);
      const before = trace.progress.doneBefore(trace.index, itemId);
      if (before) {
        trace.stats.reused++;
        trace.partial.push(...before);
        continue;
      }
      const output = await call([packet]);
      trace.partial.push(...output);
      await trace.progress.done(itemId, output, n === packets.length - 1);
    }
    return trace.partial;
  }

  /** Whether the step a waiting job waits at is still in its flow (a flow or pipeline gone: not). */
  private async stepInFlow(job: JobRecord): Promise<boolean> {
    if (job.flow_id === null || !job.review) return true;
    try {
      const plan = await this.plan(job, null);
      return plan.some((s) => s.flowStepId === job.review!.flow_step_id);
    } catch {
      return false;
    }
  }

  /** A run going on after a wait: the configuration it goes on with, kept beside the start's when they differ. */
  private async recordResumedWith(job: JobRecord, plan: PlannedStep[], revision: JobRevision, index: number): Promise<void> {
    const steps = ranWith(plan);
    const same =
      revision.revision === (job.revision ?? null) &&
      revision.pipeline_revision === (job.pipeline_revision ?? null) &&
      canonicalJson(steps) === canonicalJson(job.ran_with ?? null);
    if (same) return;
    const entry = { resumed_at: this.deps.clock.now(), position: index + 1, ...revision, ran_with: steps };
    await this.deps.jobs.recordResumedWith(job.job_id, [...(job.resumed_with ?? []), entry]);
  }

  /** A retry's first lines: where it starts, and the items another run did meanwhile. */
  private async logResume(
    job: JobRecord,
    plan: PlannedStep[],
    start: { index: number; packets: DataPacket[]; takenMeanwhile: string[] },
    context: Record<string, unknown>,
  ): Promise<void> {
    const step = plan[start.index]!;
    if (job.review_resume) {
      await this.deps.log(
        'info',
        `Job ${job.job_id} goes on after its wait from step ${start.index + 1}/${plan.length} ${step.stepType} with its ${start.packets.length} item${start.packets.length === 1 ? '' : 's'}`,
        { ...context, step: start.index + 1 },
      );
      return;
    }
    await this.deps.log(
      'info',
      `Job ${job.job_id} retries job ${job.retry_of} from step ${start.index + 1}/${plan.length} ${step.stepType} with its ${start.packets.length} item${start.packets.length === 1 ? '' : 's'}; steps before it are not run again`,
      { ...context, retry_of: job.retry_of, step: start.index + 1 },
    );
    if (start.takenMeanwhile.length)
      await this.deps.log(
        'warning',
        `${start.takenMeanwhile.length} item${start.takenMeanwhile.length === 1 ? ' was' : 's were'} taken by another run since job ${job.retry_of} failed; not done again: ${start.takenMeanwhile.slice(0, 10).join(', ')}`,
        { ...context, items: start.takenMeanwhile.slice(0, 100) },
      );
  }

  /** Up to max_items (default 1) items this flow step has not processed before, each claimed. */
  private async claimNew(job: JobRecord, step: PlannedStep, items: DataPacket[], trace: StepTrace): Promise<DataPacket[]> {
    const max = fetchCap(step.handlerConfig);
    const fresh: DataPacket[] = [];
    const detail = this.itemDetail();
    for (const item of items) {
      if (fresh.length >= max) break;
      const itemId = itemIdentity(item);
      const claimed = await this.deps.jobs.claimItem({
        flow_step_id: step.flowStepId,
        flow_id: job.flow_id,
        pipeline_id: job.pipeline_id,
        item_id: itemId,
        job_id: job.job_id,
      });
      if (claimed) {
        trace.progress.claimed({ flow_step_id: step.flowStepId, item_id: itemId });
        fresh.push({ ...item, metadata: { ...item.metadata, item_id: itemId } });
      } else {
        trace.stats.skipped++;
        if (detail)
          await this.deps.log('debug', `${trace.label} item skipped, already processed: ${describePacket(item, itemId)}`, {
            ...trace.context,
            item_id: itemId,
            title: packetTitle(item),
          });
      }
    }
    return fresh;
  }

  /** An item's decision at a step: made while this job waited there, or by the run it retries. */
  private decisionOf(job: JobRecord, flowStepId: string, itemId: string): ReviewDecision | null {
    const found = (job.decided ?? []).find((d) => d.flow_step_id === flowStepId && d.item_id === itemId);
    return found ? found.decision : null;
  }

  /**
   * A run pauses at a step that waits: the job becomes `waiting` in the store with the
   * step's undecided items and its input sealed as the checkpoint it goes on from; its
   * flow is freed (other runs go on meanwhile; the run waits in the flow's queue when it
   * resumes). Then the alerts: `jobWaiting`, with the signed links.
   */
  private async pause(
    job: JobRecord,
    steps: StepOutcome[],
    waiting: Waiting,
    progress: RunProgress,
    hold: RunHold,
    context: Record<string, unknown>,
  ): Promise<void> {
    const { index, step, input, request } = waiting;
    const review = this.reviews.begin(
      { flowStepId: step.flowStepId, index },
      input,
      request,
      (p) => this.decisionOf(job, step.flowStepId, packetIdentity(p)),
      packetIdentity,
      packetTitle,
    );
    if (review.items.length === 0) throw new StepFailure(`Step ${index + 1} asked to wait with no undecided item`);
    const checkpoint = this.deps.checkpoints.at(step.flowStepId, index, input);
    const timeout = review.timeout_at ? `; on ${review.timeout_at.toISOString()} the rest are ${review.on_timeout}d` : '';
    await this.deps.log(
      'info',
      `Job ${job.job_id} waits at step ${index + 1} (${review.mode === 'webhook' ? 'for a webhook delivery' : 'for review'}) with ${review.items.length} item${review.items.length === 1 ? '' : 's'}${timeout}`,
      { ...context, step: index + 1, status: 'waiting', items: review.items.length },
    );
    await this.deps.flushLog?.();
    let paused = false;
    try {
      paused = await this.deps.jobs.pause(job.job_id, steps, review, checkpoint, progress.stepEnded(null, []).kept);
    } finally {
      hold.release();
      this.holds.delete(job.job_id);
      if (job.flow_id !== null) {
        await this.deps.runMarks.clearRunning(job.flow_id, job.job_id);
        this.runNextQueued(job.flow_id);
      }
    }
    if (!paused) return; // cancelled meanwhile, or taken for dead: not this run's to pause
    const links = this.reviewLinks(job.job_id, review);
    await this.deps.events.jobWaiting
      .promise({
        jobId: job.job_id,
        flowId: job.flow_id,
        position: review.position,
        mode: review.mode,
        items: review.items.length,
        timeoutAt: review.timeout_at,
        onTimeout: review.on_timeout,
        reviewUrl: links.review_url,
        ...(links.webhook_url ? { webhookUrl: links.webhook_url } : {}),
      })
      .catch((err: unknown) => this.deps.logger.warn({ err, job_id: job.job_id }, 'A jobWaiting tap failed'));
  }

  /** A waiting job's signed links: the review page (approve or reject, once), and a webhook-mode wait's delivery URL. */
  reviewLinks(jobId: number, review: JobRecord['review'] & object): { review_url: string; webhook_url: string | null } {
    let base = '';
    try {
      base = this.deps.apiBase?.() ?? '';
    } catch {
      base = '';
    }
    const url = (path: string, purpose: 'review' | 'webhook') =>
      `${base}/jobs/${jobId}/${path}?token=${encodeURIComponent(this.reviews.token({ job_id: jobId }, review, purpose))}`;
    return { review_url: url('review', 'review'), webhook_url: review.mode === 'webhook' ? url('webhook', 'webhook') : null };
  }

  private get recordBytes(): number {
    return this.deps.stepRecordBytes ?? DEFAULT_STEP_RECORD_BYTES;
  }

  private itemDetail(): boolean {
    return this.deps.itemDetail ? this.deps.itemDetail() : false;
  }

  /**
   * The content store the run's handlers write through: filtered as a post its flow's owner
   * sent to wp/v2 would be (an ephemeral workflow's owner is who sent it). No owner, or an
   * owner that cannot be read: filtered, as WordPress filters a write with no user.
   */
  private async contentOf(job: JobRecord, flow: FlowRecord | null): Promise<ContentStore> {
    const unfiltered: Capability = 'unfiltered_html';
    if (job.workflow) return contentWrittenAs(this.deps.content, actingUser(job.started_by)?.can(unfiltered) === true);
    const record = flow ?? (job.flow_id !== null ? await this.deps.flows.record(job.flow_id) : null);
    const ownerId = record?.owner_id;
    const owner = typeof ownerId === 'number' ? await this.deps.users.principalFor(ownerId, 'local').catch(() => null) : null;
    return contentWrittenAs(this.deps.content, owner?.can(unfiltered) === true);
  }

  private context(job: JobRecord, step: PlannedStep, content: ContentStore, credentials: HandlerCredentials | null = null): HandlerContext {
    return {
      user: actingUser(job.started_by),
      credentials,
      log: this.deps.logger.child({ job_id: job.job_id, flow_step_id: step.flowStepId, handler: step.handlerSlug }),
      clock: this.deps.clock,
      flowId: job.flow_id,
      pipelineId: job.pipeline_id,
      jobId: job.job_id,
      flowStepId: step.flowStepId,
      fetch: this.deps.fetch,
      content,
      engineData: Object.freeze({ ...job.engine_data }),
    };
  }

  /**
   * Puts a webhook job back to pending in its flow's queue: the end of the flow's current
   * run starts it. If that run ended while this job was being put back, nobody would; so
   * runNextQueued is asked too, and starts the oldest queued job if the flow is free by now.
   */
  private async queue(job: JobRecord): Promise<'queued'> {
    await this.deps.jobs.requeue(job.job_id);
    this.queues.requeued(job.flow_id!);
    this.runNextQueued(job.flow_id!);
    return 'queued';
  }

  /**
   * Starts the oldest queued webhook job of the flow, if any and if the flow is free (in
   * this process, tracked for drain). A busy flow starts it itself when its run ends; callers
   * store their job before calling, so one of the two always sees it.
   */
  runNextQueued(flowId: number): void {
    this.queues.ask(flowId);
  }

  /**
   * Starts one job in this process after the current request has been answered, tracked
   * for drain. Every run goes through here: execute requests, schedules and delayed runs
   * (from Agenda), and queued webhook jobs (by runNextQueued). The claim in `run` keeps
   * it to one run whoever else starts the same job.
   */
  start(jobId: number): Promise<JobStatus | 'queued' | null> {
    const run = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return this.run(jobId);
    })();
    const tracked = run.catch((error: unknown) => {
      this.deps.logger.error({ job_id: jobId, err: error }, 'A run failed to start');
      return null;
    });
    this.chained.add(tracked);
    void tracked.finally(() => this.chained.delete(tracked));
    return run;
  }

  /**
   * The safety net (at start-up and every half lease): flows with queued webhook jobs and
   * no run to start them, and runs whose process died between storing the job and starting
   * it (pending, immediate and older than `graceSeconds`, or delayed and due that long ago;
   * by default one run lease: a live process starts an immediate run within milliseconds
   * and Agenda a delayed one within its poll, and the claim keeps a run started late to one
   * run; a minute here left a killed host's acknowledged executes waiting past the recovery
   * bound, and delayed ones were never started).
   */
  async resumeQueued(graceSeconds = this.leaseSeconds): Promise<number> {
    await this.recoverStale();
    // Waits past their timeout get their outcome here, on whichever host sweeps (review.ts).
    await this.reviews.timeouts();
    const flowIds = await this.deps.jobs.flowsWithQueuedJobs();
    for (const flowId of flowIds) this.runNextQueued(flowId);
    const orphans = await this.deps.jobs.unstarted(new Date(this.deps.clock.now().getTime() - graceSeconds * 1000));
    for (const orphan of orphans) void this.start(orphan);
    return flowIds.length + orphans.length;
  }

  /**
   * POST /jobs/{id}/cancel: the job ends `cancelled` (JobsService.cancel) and, if it was
   * running, its flow is freed for the next run. Its run, in this process or on another
   * host (whose next lease renewal finds the job gone), stops at its next step boundary,
   * and its end changes nothing (the end write needs the job still `processing`).
   */
  async cancel(jobId: number, reason: string): Promise<JobRecord> {
    const job = await this.deps.jobs.cancel(jobId, reason);
    if (job.status === 'processing') {
      this.holds.get(jobId)?.lose();
      if (job.flow_id !== null) await this.deps.runMarks.clearRunning(job.flow_id, jobId);
    }
    if (job.flow_id !== null) this.runNextQueued(job.flow_id);
    return job;
  }

  /**
   * Runs whose host died (lease not renewed for `runLeaseSeconds`): their jobs failed as
   * interrupted, claims released, including a job claimed without its flow's mark (a kill
   * between the two writes on MongoDB); then the flows they, or a run killed between its
   * job's end and its flow's, left marked are freed and their queues asked to go on.
   * Part of the sweep (resumeQueued), on whichever host runs it.
   */
  async recoverStale(): Promise<{ failed: number[]; freed: number[] }> {
    const staleBefore = this.staleBefore(this.deps.clock.now());
    const failed = await this.deps.jobs.recoverInterrupted(staleBefore);
    const freed = await this.deps.runMarks.repairRunningMarks(this.deps.jobs.jobs, staleBefore);
    for (const flowId of freed) this.runNextQueued(flowId);
    if (failed.length || freed.length)
      this.deps.logger.warn(
        { failed_jobs: failed, freed_flows: freed },
        'Runs of a dead host were failed as interrupted and their flows freed',
      );
    return { failed, freed };
  }

  /** The claim, then the flow's mark; the lock answers the flow as it is now, so the plan does not read it again. */
  private async claimThenLock(jobId: number): Promise<{ job: JobRecord; flow: FlowRecord | null } | null> {
    const job = await this.deps.jobs.claim(jobId);
    if (!job) return null;
    return { job, flow: job.flow_id !== null ? await this.lockFlow(job) : null };
  }

  /**
   * A queued job of a known flow on the embedded store: its claim and the flow's mark in
   * one transaction. A job another runner had claimed gives the mark back at once.
   */
  private async claimAndLock(jobId: number, flowId: number): Promise<{ job: JobRecord; flow: FlowRecord | null } | null> {
    const now = this.deps.clock.now();
    const [job, flow] = (await this.deps.jobs.bulk([
      this.deps.jobs.claimOp(jobId, flowId),
      this.deps.runMarks.markRunningOp(flowId, jobId, now, this.staleBefore(now)),
    ])) as [JobRecord | null, FlowRecord | null];
    if (!job) {
      if (flow) await this.deps.runMarks.clearRunning(flowId, jobId);
      return null;
    }
    return { job, flow };
  }

  private get leaseSeconds(): number {
    return this.deps.runLeaseSeconds ?? DEFAULT_RUN_LEASE_SECONDS;
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - this.leaseSeconds * 1000);
  }

  /** The flow's running mark: taken atomically, so the same flow never runs twice at once, on any host. The flow, or null when busy. */
  private async lockFlow(job: JobRecord): Promise<FlowRecord | null> {
    const now = this.deps.clock.now();
    return this.deps.runMarks.markRunning(job.flow_id!, job.job_id, now, this.staleBefore(now));
  }
}
