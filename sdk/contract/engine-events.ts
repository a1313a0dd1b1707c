/**
 * The engine's events (issue 54): the engine owns these hooks and alone fires them;
 * a plugin listens through `deps: { engine: services.engineEvents }`
 * (`engine.jobFailed.tap('alerts', ...)`), with the tapping methods only.
 */
import type { AsyncSeriesHook, AsyncSeriesWaterfallHook } from 'tapable';
import type { DataPacket } from '../kernel/contributions.js';
import type { ListenOnly } from '../kernel/domain-hooks.js';
import { createServiceRef } from '../kernel/service-ref.js';

/** Passed to the engine's step hooks (the packets are the waterfall value). */
export interface StepInfo {
  jobId: number;
  flowId: number | null;
  flowStepId: string;
  stepType: string;
  handlerSlug: string | null;
}

export interface JobOutcome {
  jobId: number;
  flowId: number | null;
  status: string;
  error?: string;
  /** What started the run: execute, schedule, webhook, cli. */
  source?: string;
  /** From the run's start to its final state. */
  durationMs?: number;
}

/** A run paused at a step that waits for review or a delivery (approval): who should look, and where. */
export interface JobWaiting {
  jobId: number;
  flowId: number | null;
  /** The step's 1-based position in the flow. */
  position: number;
  mode: 'review' | 'webhook';
  /** How many items wait for a decision. */
  items: number;
  timeoutAt: Date | null;
  onTimeout: 'approve' | 'reject';
  /** The signed one-time link (a page offering approve or reject), absolute when the host knows its public URL. */
  reviewUrl: string;
  /** Webhook mode: the signed URL a delivery resumes the run at. */
  webhookUrl?: string;
}

/** The engine's hooks as the engine holds them (core/engine/engine-hooks.ts builds them). */
export interface EngineHookSet {
  /** Before each step, with the packets it is given: a tap may change them (waterfall). */
  readonly stepStarting: AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>;
  /** After each step, with the packets it gave. */
  readonly stepFinished: AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>;
  /** A run ended in any other state than failed. */
  readonly jobFinished: AsyncSeriesHook<[JobOutcome]>;
  /** A run failed. */
  readonly jobFailed: AsyncSeriesHook<[JobOutcome]>;
  /** A run began to wait at a step (approval): its items wait for a decision or a delivery. */
  readonly jobWaiting: AsyncSeriesHook<[JobWaiting]>;
}

/** What a plugin sees of the engine's hooks: it listens, the engine fires. */
export type EngineEvents = ListenOnly<EngineHookSet>;

/** `deps: { engine: services.engineEvents }`: provided by the core engine plugin. */
export const engineEventsService = createServiceRef<EngineEvents, 'root'>({ id: 'engineEvents', scope: 'root' });
