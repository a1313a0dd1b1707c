export { createScheduler, type SchedulerOptions } from './create-scheduler.js';
export { PortBackend } from './port-backend.js';
export { PortJobRepository } from './port-job-repository.js';
export { JOBS_COLLECTION } from './job-document.js';
export {
  createFlowSchedule,
  FLOW_RUN_JOB,
  flowScheduleKey,
  scheduleFlow,
  unscheduleFlow,
  type FlowJobData,
  type FlowRepeat,
  type ScheduledFlow,
} from './flow-schedule.js';
