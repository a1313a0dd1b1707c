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
}

/** What a plugin sees of the engine's hooks: it listens, the engine fires. */
export type EngineEvents = ListenOnly<EngineHookSet>;

/** `deps: { engine: services.engineEvents }`: provided by the core engine plugin. */
export const engineEventsService = createServiceRef<EngineEvents, 'root'>({ id: 'engineEvents', scope: 'root' });
