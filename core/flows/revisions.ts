/**
 * A flow's revisions (issue 55): what a revision keeps of a flow (its configuration, with
 * every secret masked as responses mask it: the revision collections never hold a secret,
 * sealed or not), and how a restore lays a revision back over the flow without wiping a
 * secret it only shows masked. Run state (last run, failures, the running mark) and the
 * webhook trigger (its own surface, secrets and change log) are not part of a revision.
 */
import { isSecretKey } from '../security/mask.js';
import { HandlerSecrets } from './handler-secrets.js';
import { publicScheduling, type FlowRecord, type FlowStepSettings, type SchedulingConfig } from './model.js';

/** The mask a response shows for a stored secret (HandlerSecrets.mask). */
const MASK = '••••••••';

export const FLOW_REVISIONS = 'flow_revisions';

export interface FlowSnapshot extends Record<string, unknown> {
  flow_name: string;
  pipeline_id: number;
  scheduling_config: SchedulingConfig;
  owner_id: number | null;
  steps: Record<string, FlowStepSettings>;
}

/** The flow's configuration as a revision keeps it: keys sorted, secrets masked. */
export function flowSnapshot(
  flow: Pick<FlowRecord, 'flow_name' | 'pipeline_id' | 'scheduling_config' | 'owner_id' | 'steps'>,
): FlowSnapshot {
  const steps: Record<string, FlowStepSettings> = {};
  for (const key of Object.keys(flow.steps ?? {}).sort()) {
    const step = flow.steps[key]!;
    steps[key] = {
      handler_slug: step.handler_slug ?? null,
      handler_config: HandlerSecrets.mask(step.handler_config ?? {}),
      enabled: step.enabled !== false,
      ...(step.user_message !== undefined ? { user_message: step.user_message } : {}),
    };
  }
  return {
    flow_name: flow.flow_name,
    pipeline_id: flow.pipeline_id,
    scheduling_config: publicScheduling(flow.scheduling_config ?? { interval: 'manual' }),
    owner_id: flow.owner_id ?? null,
    steps,
  };
}

/**
 * The fingerprint of each secret the flow's steps hold, by the JSON pointer the snapshot
 * shows it at (`/steps/{key}/handler_config/app_password`): kept beside a revision, never
 * answered, so a diff says a secret changed where the masked snapshots look the same.
 */
export function flowSecretFingerprints(flow: Pick<FlowRecord, 'steps'>, secrets: HandlerSecrets): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, step] of Object.entries(flow.steps ?? {}))
    for (const [path, print] of Object.entries(secrets.fingerprints(step.handler_config ?? {})))
      out[`/steps/${key}/handler_config${path}`] = print;
  return out;
}

/** Drops secret-named fields still holding the mask: the secret they stood for is no longer stored. */
function withoutLostSecrets(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (isSecretKey(key) && typeof value === 'string' && value.startsWith(MASK)) continue;
    out[key] = value && typeof value === 'object' && !Array.isArray(value) ? withoutLostSecrets(value as Record<string, unknown>) : value;
  }
  return out;
}

/**
 * The steps a restore writes: the revision's, where each masked secret keeps the value the
 * flow holds now for the same step and handler (sealed again). A secret the flow no longer
 * holds is left out, so the step lists it in `missing_settings` instead of storing the mask.
 */
export function restoredSteps(
  revision: Record<string, FlowStepSettings>,
  current: Record<string, FlowStepSettings>,
  secrets: HandlerSecrets,
): Record<string, FlowStepSettings> {
  const steps: Record<string, FlowStepSettings> = {};
  for (const [key, step] of Object.entries(revision)) {
    const now = current[key];
    const stored = now && now.handler_slug === step.handler_slug ? secrets.open(now.handler_config ?? {}) : {};
    const kept = withoutLostSecrets(secrets.keepMasked(step.handler_config ?? {}, stored));
    steps[key] = { ...step, handler_config: secrets.seal(kept) };
  }
  return steps;
}
