/**
 * GET /metrics in the Prometheus text format: requests by route and status with latency
 * histograms, runs by source and status with durations, step durations per handler, how
 * late scheduled runs start after their slot, the job queue's depth, store operation
 * latency, and the Node process's own (memory, CPU, GC, event-loop lag). Fed by the
 * host's measuring hooks (`requestFinished`, `stepTimed`, `scheduledRunStarted`,
 * `storeOperationTimed`) and the engine's `jobFinished`/`jobFailed` (`services.engineEvents`),
 * so a host without this plugin pays nothing for them. Readable from this machine only
 * unless configured (access.ts).
 */
import { Readable } from 'node:stream';
import { definePlugin, defineSurface, errorBody, services, stream } from '../../sdk/index.js';
import { refusal, type MetricsAccess } from './access.js';
import { deferredCollectors } from './deferred-collectors.js';
import { metricsError } from './errors.js';

export interface MetricsSettings {
  access: MetricsAccess;
  /** A bearer token that admits scrapers from anywhere (at least 32 characters). */
  token?: string;
}

export default definePlugin({
  id: 'metrics',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'GET /metrics: Prometheus metrics of requests, runs, steps, the job queue, store operations and the process.',
  settingsSchema: {
    type: 'object',
    properties: {
      access: { enum: ['loopback', 'token', 'public'], default: 'loopback' },
      token: { type: 'string', minLength: 32, maxLength: 200 },
    },
    additionalProperties: false,
  },
  deps: {
    routes: services.routes,
    hooks: services.hooks,
    engine: services.engineEvents,
    jobs: services.jobs,
    config: services.configOf<MetricsSettings>(),
  },
  setup({ routes, hooks, engine, jobs, config }) {
    // prom-client loads after the first answer (deferred-collectors.ts), not at start.
    const collectors = deferredCollectors(async () =>
      (await import('./collectors.js')).createCollectors(
        (status) => jobs.countWithStatus(status),
        () => jobs.storeSpace(),
      ),
    );
    hooks.requestFinished.tap('metrics', (timing) => {
      collectors.request(timing);
      collectors.loadSoon();
    });
    hooks.stepTimed.tap('metrics', (timing) => collectors.step(timing));
    hooks.scheduledRunStarted.tap('metrics', (timing) => collectors.scheduled(timing));
    hooks.storeOperationTimed.tap('metrics', (timing) => collectors.storeOperation(timing));
    engine.jobFinished.tap('metrics', async (outcome) => collectors.job(outcome));
    engine.jobFailed.tap('metrics', async (outcome) => collectors.job(outcome));
    routes.add(
      defineSurface({
        id: 'metrics',
        mount: 'site-root',
        routes: [
          {
            method: 'GET',
            path: '/metrics',
            // Access is by address or token (access.ts), not by user: a scraper has no login.
            permission: 'public',
            credentials: 'ignored',
            summary: 'Prometheus metrics (text exposition format); this machine only unless configured',
            schema: {
              responses: {
                200: { type: 'string', contentMediaType: 'text/plain', description: 'Prometheus text format 0.0.4' },
                403: errorBody('metrics_forbidden'),
              },
            },
            async handle(request) {
              const why = refusal(config.access ?? 'loopback', config.token, request);
              if (why) throw metricsError('metrics_forbidden', { message: why });
              const { registry } = await collectors.loaded();
              const text = await registry.metrics();
              return stream(200, Readable.from([text]), { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
            },
          },
        ],
      }),
    );
  },
});
