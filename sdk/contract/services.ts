/**
 * The domain references of the public contract: each typed by its narrow interface (what
 * a plugin may do), never by the class that implements it. The core domain plugins
 * provide them; `services` (sdk/services.ts) is these plus the kernel's own.
 */
import { contentService } from './content-ref.js';
import { credentialsService } from './credentials.js';
import { executeService } from './execute.js';
import { flowsService } from './flows.js';
import { jobsService } from './jobs.js';
import { logsService } from './logs.js';
import { mailService } from './mail.js';
import { pipelinesService } from './pipelines.js';
import { settingsService } from './settings.js';
import { usersService } from './users.js';

export const domainServices = {
  users: usersService,
  settings: settingsService,
  content: contentService,
  logs: logsService,
  pipelines: pipelinesService,
  flows: flowsService,
  jobs: jobsService,
  execute: executeService,
  /** Handler credentials (handlers get theirs through `ctx.credentials`). */
  credentials: credentialsService,
  /** Sending e-mail through an SMTP server the caller names (provided by the host). */
  mail: mailService,
} as const;
