/**
 * The built-in nouns as `--help` lists them, without their code: each noun's module (and what
 * it imports: the admin client, the API session, the host for `serve`) loads only when the
 * command line names it, so `flowhost --help` and a command of one noun load one noun.
 */
import type { CliNoun } from '../cli-runtime.js';

export interface NounHeader {
  noun: string;
  command: string;
  describe: string;
}

interface CatalogueEntry extends NounHeader {
  load(): Promise<CliNoun>;
  /**
   * The plugin whose API the noun talks to: the noun exists only in a build that loads it,
   * as a plugin's own nouns do (a team build without chat has no `flowhost chat`).
   */
  plugin?: string;
}

/** In the order `--help` lists them and the usage message names them. */
const catalogue: readonly CatalogueEntry[] = [
  {
    noun: 'serve',
    command: 'serve',
    describe: 'Serve the API (embedded store in the data directory unless MONGODB_URL is set)',
    load: async () => (await import('./serve.js')).serve,
  },
  {
    noun: 'user',
    command: 'user <verb>',
    describe: 'Manage users',
    load: async () => (await import('./user.js')).user,
  },
  {
    noun: 'app-password',
    command: 'app-password <verb>',
    describe: 'Manage application passwords',
    load: async () => (await import('./app-password.js')).appPassword,
  },
  {
    noun: 'pipelines',
    command: 'pipelines <verb>',
    describe: 'Create, list, show, rename and delete pipelines; add, remove, reorder and configure their steps',
    load: async () => (await import('./pipelines.js')).pipelines,
  },
  {
    noun: 'flows',
    command: 'flows <verb>',
    describe: 'Create, configure, list, run, copy and delete flows',
    load: async () => (await import('./flows.js')).flows,
  },
  {
    noun: 'export',
    command: 'export <id>',
    describe: 'Write a flow (or with --pipeline, a pipeline with all its flows) as a portable JSON document to stdout',
    load: async () => (await import('./portable.js')).exportNoun,
  },
  {
    noun: 'import',
    command: 'import <file>',
    describe: "Import an export document (a file, or '-' for stdin) as a new pipeline with its flows",
    load: async () => (await import('./portable.js')).importNoun,
  },
  {
    noun: 'jobs',
    command: 'jobs <verb>',
    describe: 'List, show and delete jobs; approve or reject waiting ones',
    load: async () => (await import('./jobs.js')).jobs,
  },
  {
    noun: 'prune',
    command: 'prune',
    describe: 'Prune finished jobs (with their log lines) past job_retention_days now, and give the space back',
    load: async () => (await import('./prune.js')).prune,
  },
  {
    noun: 'processed-items',
    command: 'processed-items <verb>',
    describe: 'Forget the items a flow or pipeline has processed, so they are fetched again',
    load: async () => (await import('./processed-items.js')).processedItems,
  },
  {
    noun: 'logs',
    command: 'logs <verb>',
    describe: 'Read, count and clear the log',
    load: async () => (await import('./logs.js')).logs,
  },
  {
    noun: 'webhook',
    command: 'webhook <verb>',
    describe: "Manage a flow's webhook trigger",
    load: async () => (await import('./webhook.js')).webhook,
  },
  {
    noun: 'posts',
    command: 'posts <verb>',
    describe: 'List, show and delete posts (through the wp/v2 API)',
    load: async () => (await import('./posts.js')).posts,
  },
  {
    noun: 'media',
    command: 'media <verb>',
    describe: 'Upload and list media library files',
    load: async () => (await import('./media.js')).media,
  },
  {
    noun: 'providers',
    command: 'providers <verb>',
    describe: 'AI providers: list them, set a key, test a key',
    load: async () => (await import('./providers.js')).providers,
  },
  {
    noun: 'handlers',
    command: 'handlers <verb>',
    describe: 'The handlers of this build and their settings fields',
    load: async () => (await import('./handlers.js')).handlers,
  },
  {
    noun: 'auth',
    command: 'auth <verb>',
    describe: 'Handler credentials: status, set, delete',
    load: async () => (await import('./auth.js')).auth,
  },
  {
    noun: 'settings',
    command: 'settings <verb>',
    describe: 'Read and change site settings and handler defaults; list the scheduling intervals',
    load: async () => (await import('./settings.js')).settings,
  },
  {
    noun: 'preferences',
    command: 'preferences <verb>',
    describe: "A user's preferences (the selected pipeline)",
    load: async () => (await import('./preferences.js')).preferences,
  },
  {
    noun: 'tools',
    command: 'tools <verb>',
    describe: "The assistant's tools that need configuring: web-search",
    plugin: 'global-tools',
    load: async () => (await import('./tools.js')).tools,
  },
  {
    noun: 'chat',
    command: 'chat',
    describe: 'The AI assistant: a prompt loop, or one message with --message or on stdin; sessions, show, delete',
    plugin: 'chat',
    load: async () => (await import('./chat.js')).chat,
  },
  {
    noun: 'plugins',
    command: 'plugins <verb>',
    describe: 'Inspect plugins',
    load: async () => (await import('./plugins.js')).plugins,
  },
];

/** The built-in noun names: what a plugin noun may not shadow. */
export const BUILT_IN_NOUNS: readonly string[] = catalogue.map((entry) => entry.noun);

/** A noun module's name, command and description, from the one list `--help` reads. */
export function nounHeader(noun: string): NounHeader {
  const entry = catalogue.find((e) => e.noun === noun);
  if (!entry) throw new Error(`'${noun}' is not in the built-in noun catalogue`);
  return { noun: entry.noun, command: entry.command, describe: entry.describe };
}

/**
 * The built-in nouns for a command line and a build (the ids of the plugins it loads): those
 * `args` names are loaded; the others are listed (for `--help` and the usage message) and
 * never built, since yargs builds only the noun the arguments name. A noun of a plugin the
 * build does not load is left out.
 */
export async function builtInNouns(args: readonly string[], loaded: ReadonlySet<string>): Promise<CliNoun[]> {
  const wanted = new Set(args);
  const present = catalogue.filter((entry) => entry.plugin === undefined || loaded.has(entry.plugin));
  return Promise.all(present.map((entry) => (wanted.has(entry.noun) ? entry.load() : listed(entry))));
}

/** Every built-in noun, loaded (the in-process CLI of the tests runs any of them). */
export function allBuiltInNouns(): Promise<CliNoun[]> {
  return Promise.all(catalogue.map((entry) => entry.load()));
}

function listed(entry: CatalogueEntry): CliNoun {
  return {
    noun: entry.noun,
    command: entry.command,
    describe: entry.describe,
    builder: () => {
      throw new Error(`The built-in CLI noun '${entry.noun}' was not loaded`);
    },
  };
}
