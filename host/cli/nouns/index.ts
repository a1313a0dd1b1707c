import type { CliNoun } from '../cli-runtime.js';
import { serve } from './serve.js';
import { user } from './user.js';
import { appPassword } from './app-password.js';
import { flows } from './flows.js';
import { jobs } from './jobs.js';
import { logs } from './logs.js';
import { webhook } from './webhook.js';
import { plugins } from './plugins.js';
import { pipelines } from './pipelines.js';
import { exportNoun, importNoun } from './portable.js';
import { posts } from './posts.js';
import { media } from './media.js';
import { providers } from './providers.js';
import { chat } from './chat.js';
import { auth } from './auth.js';
import { handlers } from './handlers.js';
import { settings } from './settings.js';
import { preferences } from './preferences.js';
import { processedItems } from './processed-items.js';
import { tools } from './tools.js';

/** The built-in nouns, in the order `--help` lists them and the usage message names them. */
export const builtInNouns: readonly CliNoun[] = [
  serve,
  user,
  appPassword,
  pipelines,
  flows,
  exportNoun,
  importNoun,
  jobs,
  processedItems,
  logs,
  webhook,
  posts,
  media,
  providers,
  handlers,
  auth,
  settings,
  preferences,
  tools,
  chat,
  plugins,
];
