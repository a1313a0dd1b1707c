import type { DataPacket, JsonSchema, StepRunContext, StepWait, StepWaitRequest } from '../../sdk/index.js';

/** An approval step's settings (the pipeline step's config), with their defaults. */
export interface ApprovalSettings {
  mode: 'review' | 'webhook';
  timeoutMinutes: number | null;
  onTimeout: 'approve' | 'reject';
  linkHours: number;
}

const DEFAULT_LINK_HOURS = 72;
/** A year: a longer wait is a forgotten one. */
const MAX_MINUTES = 525_600;

/** The approval step's settings as saved (PUT /pipelines/steps/{id}/config checks them; docs/api.md). */
export const approvalSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['review', 'webhook'],
      default: 'review',
      description: 'review (default): people decide; webhook: one delivery approves all',
    },
    timeout_minutes: {
      type: 'number',
      minimum: 0,
      maximum: MAX_MINUTES,
      description: 'Minutes to wait before on_timeout decides the pending items (0 or absent: no timeout)',
    },
    on_timeout: { type: 'string', enum: ['approve', 'reject'], default: 'reject', description: 'What a timeout decides (default reject)' },
    link_hours: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_MINUTES,
      default: DEFAULT_LINK_HOURS,
      description: 'Life of the signed links in hours (default 72, capped by the timeout)',
    },
  },
};

/** The settings read from the step's config; a wrong one fails the step, naming it. */
export function approvalSettings(config: Readonly<Record<string, unknown>>): ApprovalSettings {
  const mode = config.mode ?? 'review';
  if (mode !== 'review' && mode !== 'webhook') throw new Error(`approval: mode must be review or webhook, not ${JSON.stringify(mode)}`);
  const onTimeout = config.on_timeout ?? 'reject';
  if (onTimeout !== 'approve' && onTimeout !== 'reject')
    throw new Error(`approval: on_timeout must be approve or reject, not ${JSON.stringify(onTimeout)}`);
  const minutes = (key: string, fallback: number | null): number | null => {
    const value = config[key];
    if (value === undefined || value === null || value === 0) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_MINUTES)
      throw new Error(`approval: ${key} must be a positive number up to ${MAX_MINUTES}`);
    return value;
  };
  const timeoutMinutes = minutes('timeout_minutes', null);
  const linkHours = minutes('link_hours', DEFAULT_LINK_HOURS)!;
  return { mode, timeoutMinutes, onTimeout, linkHours };
}

/**
 * The approval step: while any item it is given is undecided, the run waits (a job
 * `waiting` in the store, see core/engine/review.ts); once every item is decided, the
 * approved ones go on to the next step and the rejected ones are dropped.
 */
export async function runApprovalStep(ctx: StepRunContext, packets: DataPacket[]): Promise<DataPacket[] | StepWait> {
  const settings = approvalSettings(ctx.config);
  if (packets.length === 0) return [];
  if (packets.some((p) => ctx.decisionOf(p) === null)) {
    const request: StepWaitRequest = {
      mode: settings.mode,
      timeoutMinutes: settings.timeoutMinutes,
      onTimeout: settings.onTimeout,
      linkHours: settings.linkHours,
    };
    return ctx.wait(request);
  }
  const approved = packets.filter((p) => ctx.decisionOf(p) === 'approved');
  ctx.report({ review: { approved: approved.length, rejected: packets.length - approved.length } });
  return approved;
}
