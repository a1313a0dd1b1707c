/** Time as a service, so tests and the engine can run on a fake clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
