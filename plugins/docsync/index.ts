/**
 * Documentation sync (docsync/v1): `documentation` posts under the hierarchical `project`
 * taxonomy (both registered through the SDK, so wp/v2 serves them too), kept in step with
 * the markdown files of repositories on a GitHub-shaped source-hosting service. Syncs run
 * as background jobs, one per project at a time across hosts.
 */
import { definePlugin, definePostType, defineSurface, defineTaxonomy, services } from '../../sdk/index.js';
import { chatTools } from '../../sdk/chat/index.js';
import { cliNouns } from './cli.js';
import { DocsService } from './docs-service.js';
import { docsRoutes } from './docs-routes.js';
import { JOB_NAME, SyncJobs, type JobDoc } from './jobs.js';
import { ProjectLeases, type LeaseDoc } from './lease.js';
import { POST_TYPE, TAXONOMY, type DocsyncSettings } from './model.js';
import { Projects } from './projects.js';
import { projectRoutes } from './project-routes.js';
import { SyncEngine } from './sync-engine.js';
import { syncRoutes } from './sync-routes.js';
import { AccessToken, type TokenDoc } from './token.js';
import { docsyncTools } from './tools.js';

export type { DocsyncSettings };

export default definePlugin({
  id: 'docsync',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Documentation posts and the project taxonomy (docsync/v1), synced from markdown files of source repositories.',
  settingsSchema: {
    type: 'object',
    properties: {
      github_base_url: { type: 'string', pattern: '^https?://[^\\s]+$', maxLength: 500, default: 'https://api.github.com' },
      github_token: { type: 'string', maxLength: 4096, default: '' },
      sync_wait_seconds: { type: 'integer', minimum: 0, maximum: 300, default: 20 },
      max_file_bytes: { type: 'integer', minimum: 1024, maximum: 10 * 1024 * 1024, default: 1024 * 1024 },
      max_files: { type: 'integer', minimum: 1, maximum: 100_000, default: 5000 },
      fetch_concurrency: { type: 'integer', minimum: 1, maximum: 32, default: 8 },
    },
  },
  deps: {
    routes: services.routes,
    postTypes: services.postTypes,
    taxonomies: services.taxonomies,
    // Optional: docsync works without chat; its tools are offered only where chat is loaded.
    tools: chatTools.optional,
    content: services.content,
    store: services.store,
    scheduler: services.scheduler,
    vault: services.vault,
    clock: services.clock,
    hostInfo: services.hostInfo,
    hooks: services.hooks,
    log: services.logger,
    settings: services.configOf<DocsyncSettings>(),
  },
  async setup({ routes, postTypes, taxonomies, tools, content, store, scheduler, vault, clock, hostInfo, hooks, log, settings }) {
    postTypes.add(definePostType({ name: POST_TYPE, label: 'Documentation', rest_base: 'documentation', taxonomies: [TAXONOMY] }));
    taxonomies.add(
      defineTaxonomy({ name: TAXONOMY, label: 'Projects', rest_base: 'project', hierarchical: true, post_types: [POST_TYPE] }),
    );

    const now = () => clock.now();
    const projects = new Projects(content);
    const docs = new DocsService(content, projects, () => hostInfo.publicUrl());
    const token = new AccessToken(store.collection<TokenDoc>('settings'), vault, settings.github_token.trim());
    const leases = new ProjectLeases(store.collection<LeaseDoc>('leases'), now);
    const engine = new SyncEngine(
      content,
      docs,
      { maxFileBytes: settings.max_file_bytes, maxFiles: settings.max_files, concurrency: settings.fetch_concurrency },
      now,
    );
    const jobsCollection = store.collection<JobDoc>('sync_jobs');
    await jobsCollection.createIndex({ fields: { created_at: -1 }, name: 'sync_jobs_created' });
    const jobs = new SyncJobs(jobsCollection, () => store.nextId('sync_jobs'), scheduler, {
      content,
      projects,
      engine,
      leases,
      token,
      baseUrl: settings.github_base_url.replace(/\/+$/, ''),
      log,
      now,
    });
    // A run's lock outlives a long repository; a host that dies mid-sync leaves the job to be
    // retried elsewhere, which skips every post already written (blob SHAs).
    // Syncs a killed host left running are closed at boot, as the engine closes its runs.
    hooks.repairInterrupted.tapPromise('docsync', async ({ startedBefore }) => void (await jobs.closeInterrupted(startedBefore)));
    scheduler.define<{ job_id: string }>(JOB_NAME, (job) => jobs.run(String(job.data.job_id)), {
      concurrency: 2,
      lockLifetimeMs: 30 * 60_000,
    });

    routes.add(
      defineSurface({
        id: 'docsync',
        namespace: 'docsync/v1',
        routes: [
          ...docsRoutes(content, docs, projects),
          ...projectRoutes(content, projects),
          ...syncRoutes({ content, docs, projects, jobs, token, settings }),
        ],
      }),
    );
    for (const tool of docsyncTools({ content, docs, projects, jobs, token, waitSeconds: settings.sync_wait_seconds })) tools.add(tool);
  },
  cli: cliNouns,
});
