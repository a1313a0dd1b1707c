import { INPUT_LIMITS } from '../kernel/input-limits.js';
import { actingUserRecord } from '../kernel/acting-user.js';
import type { Principal } from '../kernel/principal.js';
import type { Clock } from '../kernel/clock.js';
import type { Registries } from '../kernel/registries.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import type { FlowsService } from '../flows/service.js';
import type { JobsService } from '../jobs/service.js';
import type { RunSource, WorkflowStep } from '../jobs/model.js';
import type { JobDispatcher } from './dispatcher.js';
import { DEFAULT_RUN_LEASE_SECONDS } from './run-lease.js';
import type { ExecuteApi, ExecuteRequest } from '../../sdk/contract/execute.js';
import { apiError } from '../errors/catalogue.js';
import { blocksRun } from '../flows/orphans.js';

/** How the trigger's log line names each way of asking for a run. */
const VIA: Record<RunSource, string> = {
  execute: 'POST /execute',
  cli: 'the CLI',
  chat: 'the chat assistant',
  mcp: 'an MCP agent',
};

export type { ExecuteRequest };

/** POST /execute: a saved flow or an ephemeral workflow, now or once at `timestamp`. */
export class ExecuteService implements ExecuteApi {
  constructor(
    private readonly deps: {
      jobs: JobsService;
      flows: FlowsService;
      registries: Registries;
      catalogue: HandlerCatalogue;
      clock: Clock;
      dispatcher: () => JobDispatcher;
      /** The engine's run lease: a running mark not renewed for this long no longer refuses a run. */
      runLeaseSeconds?: number;
      /** Where "who started this run" goes (the searchable log and the process log). */
      log?: (entry: {
        message: string;
        context: Record<string, unknown>;
        user_id: number | null;
        agent_id: number | null;
      }) => Promise<void>;
    },
  ) {}

  /** One line naming who asked for the run, how, and the job it made. */
  private async logTrigger(
    source: RunSource,
    user: Principal | null,
    what: string,
    job: { job_id: number; flow_id: number | null; pipeline_id: number | null },
    at: Date | null,
  ): Promise<void> {
    if (!this.deps.log) return;
    // The run's first line: scoped to the pipeline's agent like the engine's lines after it.
    const agentId = await this.deps.flows.agentOf(job.pipeline_id).catch(() => null);
    const who = user ? `${user.login} (user ${user.userId})` : 'an unknown user';
    const via = VIA[source];
    const when = at ? `, to run at ${at.toISOString()}` : '';
    await this.deps.log({
      message: `${what} triggered manually by ${who} via ${via}: job ${job.job_id}${when}`,
      context: {
        job_id: job.job_id,
        flow_id: job.flow_id,
        pipeline_id: job.pipeline_id,
        trigger: source,
        user_login: user?.login ?? null,
        ...(at ? { scheduled_for: at.toISOString() } : {}),
      },
      user_id: user?.userId ?? null,
      agent_id: agentId,
    });
  }

  /** `user`: who asks; handlers, providers and tools of the run act with their capabilities. */
  async execute(input: ExecuteRequest, source: RunSource = 'execute', user: Principal | null = null): Promise<Record<string, unknown>> {
    const started_by = actingUserRecord(user);
    const hasFlow = input.flow_id !== undefined && input.flow_id !== null;
    const hasWorkflow = input.workflow !== undefined && input.workflow !== null;
    if (hasFlow && hasWorkflow)
      throw apiError('rest_invalid_param', {
        message: 'Give either flow_id or workflow, not both',
        data: { params: { flow_id: 'not with workflow', workflow: 'not with flow_id' } },
      });
    if (!hasFlow && !hasWorkflow)
      throw apiError('rest_missing_callback_param', {
        message: 'Missing parameter(s): flow_id or workflow',
        data: { params: ['flow_id', 'workflow'] },
      });
    let at: Date | null = null;
    if (input.timestamp !== undefined) {
      at = new Date(input.timestamp * 1000);
      // The CLI reaches here without the route's schema: the same bound, before any job id is spent.
      if (!Number.isSafeInteger(input.timestamp) || input.timestamp > INPUT_LIMITS.maxUnixSeconds) {
        throw apiError('rest_invalid_param', {
          message: `timestamp must be a Unix time in seconds no later than ${INPUT_LIMITS.maxUnixSeconds} (year 9999)`,
          data: { params: { timestamp: 'out of range' } },
        });
      }
      if (at.getTime() <= this.deps.clock.now().getTime()) {
        throw apiError('rest_invalid_param', {
          message: 'timestamp must be a future Unix time in seconds',
          data: { params: { timestamp: 'must be in the future' } },
        });
      }
    }
    if (hasFlow) {
      const flow = await this.deps.flows.get(input.flow_id!);
      // A step whose handler or step type no loaded plugin provides cannot run: say so now
      // rather than store a job that fails at that step.
      const orphaned = blocksRun(await this.deps.flows.missingContributions(flow));
      if (orphaned.length > 0)
        throw apiError('flow_orphaned', {
          message: `Flow ${flow.flow_id} "${flow.flow_name}" cannot run: ${orphaned.map((m) => m.reason).join('; ')}.`,
          data: { flow_id: flow.flow_id, orphaned },
        });
      // A run now of a flow that is running would only be skipped (a flow never runs twice
      // at once): say so instead of "started", and spend no job on it. A mark not renewed
      // for a run lease is a dead host's and no longer holds (the engine takes it over).
      const now = this.deps.clock.now().getTime();
      if (
        !at &&
        flow.running_job_id != null &&
        flow.running_since instanceof Date &&
        flow.running_since.getTime() > now - (this.deps.runLeaseSeconds ?? DEFAULT_RUN_LEASE_SECONDS) * 1000
      ) {
        throw apiError('flow_running', {
          message: `Flow ${flow.flow_id} "${flow.flow_name}" is already running (job ${flow.running_job_id}); this run was not started. Try again when that run ends.`,
          data: { flow_id: flow.flow_id, running_job_id: flow.running_job_id },
        });
      }
      const job = await this.deps.jobs.create({
        flow_id: flow.flow_id,
        pipeline_id: flow.pipeline_id,
        label: flow.flow_name,
        engine_data: { ...(input.initial_data ?? {}) },
        source,
        scheduled_for: at,
        started_by,
      });
      await this.logTrigger(source, user, `Flow ${flow.flow_id} "${flow.flow_name}"`, job, at);
      const actionId = await this.dispatch(job.job_id, at);
      return {
        success: true,
        message: at ? `Flow "${flow.flow_name}" scheduled to run once at ${at.toISOString()}.` : `Flow "${flow.flow_name}" started.`,
        data: {
          execution_type: at ? 'delayed' : 'immediate',
          job_id: job.job_id,
          action_id: actionId,
          flow_id: flow.flow_id,
          flow_name: flow.flow_name,
        },
      };
    }
    const steps = this.checkWorkflow(input.workflow!.steps);
    const job = await this.deps.jobs.create({
      flow_id: null,
      pipeline_id: null,
      label: 'Ephemeral workflow',
      engine_data: { ...(input.initial_data ?? {}) },
      workflow: steps,
      source,
      scheduled_for: at,
      started_by,
    });
    await this.logTrigger(source, user, `An ephemeral workflow (${steps.length} step${steps.length === 1 ? '' : 's'})`, job, at);
    const actionId = await this.dispatch(job.job_id, at);
    return {
      success: true,
      message: at ? `Workflow scheduled to run once at ${at.toISOString()}.` : 'Workflow started.',
      data: { execution_type: at ? 'delayed' : 'immediate', job_id: job.job_id, action_id: actionId, step_count: steps.length },
    };
  }

  private async dispatch(jobId: number, at: Date | null): Promise<number> {
    const dispatcher = this.deps.dispatcher();
    const actionId = at ? await dispatcher.runAt(jobId, at) : await dispatcher.runNow(jobId);
    await this.deps.jobs.setActionId(jobId, actionId);
    return actionId;
  }

  /** Every step's type and handler must exist and fit, and settings pass the handler's schema. */
  private checkWorkflow(steps: WorkflowStep[]): WorkflowStep[] {
    return steps.map((step, index) => {
      const type = this.deps.catalogue.stepType(step.type);
      if (!type) throw apiError('invalid_step_type', { message: `workflow.steps[${index}]: unknown step type '${step.type}'` });
      if (step.type === 'ai') {
        if (!step.provider || !this.deps.registries.providers().some((p) => p.slug === step.provider)) {
          throw apiError('provider_not_found', {
            message: `workflow.steps[${index}]: unknown AI provider '${step.provider ?? ''}'`,
            status: 400,
          });
        }
        return step;
      }
      // A step type that runs itself (a plugin's own kind of step) takes its config as given.
      if (type.handlerType === null) return step;
      if (!step.handler_slug)
        throw apiError('handler_not_found', {
          message: `workflow.steps[${index}]: handler_slug is required for a ${step.type} step`,
          status: 400,
        });
      if (!this.deps.catalogue.handler(step.handler_slug)) {
        throw apiError('handler_not_found', { message: `workflow.steps[${index}]: unknown handler '${step.handler_slug}'`, status: 400 });
      }
      // Stored on the job: its secrets are sealed like a flow's.
      return {
        ...step,
        handler_config: this.deps.flows.secrets.seal(this.deps.flows.checkHandler(step.type, step.handler_slug, step.handler_config ?? {})),
      };
    });
  }
}
