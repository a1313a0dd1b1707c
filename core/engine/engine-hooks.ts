import { AsyncSeriesHook, AsyncSeriesWaterfallHook } from 'tapable';
import type { DataPacket } from '../kernel/contributions.js';
import type { EngineHookSet, JobOutcome, JobWaiting, StepInfo } from '../../sdk/contract/engine-events.js';

/** The engine's own hooks: it alone fires them; plugins listen through `services.engineEvents`. */
export class EngineHooks implements EngineHookSet {
  readonly stepStarting = new AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>(['packets', 'step']);
  readonly stepFinished = new AsyncSeriesWaterfallHook<[DataPacket[], StepInfo]>(['packets', 'step']);
  readonly jobFinished = new AsyncSeriesHook<[JobOutcome]>(['outcome']);
  readonly jobFailed = new AsyncSeriesHook<[JobOutcome]>(['outcome']);
  readonly jobWaiting = new AsyncSeriesHook<[JobWaiting]>(['waiting']);
}
