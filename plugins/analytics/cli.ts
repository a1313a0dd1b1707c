/**
 * `flowhost analytics`: configure a tool (its secret, the key file or API key, read from
 * stdin so it stays out of the shell history and the process list), show its
 * configuration, and run an action: `flowhost analytics site-analytics page_stats --limit 10`.
 */
import { readFileSync } from 'node:fs';
import { defineCliNoun, type CliCommandDefinition, type CliNounDefinition, type CliOption } from '../../sdk/index.js';
import { TOOL_CATALOGUE, TOOL_IDS, isToolId } from '../../sdk/analytics/index.js';
import { table } from './table.js';

const path = (tool: string, tail = '') => `/automation/v1/analytics/${encodeURIComponent(tool)}${tail}`;

function toolId(value: unknown): string {
  const id = String(value);
  if (!isToolId(id)) throw new Error(`Unknown analytics tool '${id}'. Tools: ${TOOL_IDS.join(', ')}`);
  return id;
}

const configure: CliCommandDefinition = {
  command: 'configure <tool>',
  describe: "Configure a tool; its secret (the service account's key file, or the API key) is read from stdin with --secret-stdin",
  options: {
    'secret-stdin': { type: 'boolean', describe: 'Read the secret from stdin' },
    site_url: { type: 'string', describe: 'search-stats, crawler-stats: the site' },
    property_id: { type: 'string', describe: 'site-analytics: the GA4 property id' },
  },
  async run(args, ctx) {
    const id = toolId(args.tool);
    const entry = TOOL_CATALOGUE[id as keyof typeof TOOL_CATALOGUE];
    const body: Record<string, string> = {};
    if (args['secret-stdin']) {
      const secretField = Object.entries(entry.config).find(([, spec]) => spec.secret)![0];
      body[secretField] = readFileSync(0, 'utf8').trim();
    }
    for (const field of ['site_url', 'property_id']) {
      if (args[field] === undefined) continue;
      if (!(field in entry.config))
        throw new Error(`${id} has no ${field} setting (its settings: ${Object.keys(entry.config).join(', ')})`);
      body[field] = String(args[field]);
    }
    if (Object.keys(body).length === 0)
      throw new Error(
        `Nothing to save: pipe the secret with --secret-stdin, or give ${
          Object.keys(entry.config)
            .filter((f) => !entry.config[f]!.secret)
            .map((f) => `--${f}`)
            .join(' / ') || 'a setting'
        }`,
      );
    const res = await ctx.call<{ message: string; data: { configured: boolean; missing: string[]; settings: Record<string, string> } }>(
      'PUT',
      path(id, '/config'),
      { body },
    );
    ctx.print(res.data, `${res.message}${res.data.configured ? '' : ` Still missing: ${res.data.missing.join(', ')}.`}`);
  },
};

const show: CliCommandDefinition = {
  command: 'config <tool>',
  describe: "Show a tool's configuration (secrets masked)",
  async run(args, ctx) {
    const id = toolId(args.tool);
    const res = await ctx.call<{ data: { configured: boolean; missing: string[]; settings: Record<string, string> } }>(
      'GET',
      path(id, '/config'),
    );
    const lines = Object.entries(res.data.settings).map(([k, v]) => `${k}: ${v || '(unset)'}`);
    ctx.print(
      res.data,
      [`${id}: ${res.data.configured ? 'configured' : `not configured (missing ${res.data.missing.join(', ')})`}`, ...lines].join('\n'),
    );
  },
};

function runCommand(id: keyof typeof TOOL_CATALOGUE): CliCommandDefinition {
  const entry = TOOL_CATALOGUE[id];
  const options: Record<string, CliOption> = {};
  for (const [name, spec] of Object.entries(entry.parameters)) {
    options[name] = { type: (spec.schema as { type?: string }).type === 'integer' ? 'number' : 'string', describe: spec.describe };
  }
  return {
    command: `${id} <action>`,
    describe: `${entry.label}: ${entry.actions.join(', ')}`,
    options,
    async run(args, ctx) {
      const body: Record<string, unknown> = { action: String(args.action) };
      for (const name of Object.keys(entry.parameters)) if (args[name] !== undefined) body[name] = args[name];
      const res = await ctx.call<{ results: unknown[]; results_count: number }>('POST', path(id), { body });
      ctx.print(res, `${table(res.results)}\n(${res.results_count} ${res.results_count === 1 ? 'row' : 'rows'})`);
    },
  };
}

/** Any tool the host answers, a plugin's own too: the body's fields as one JSON object. */
const call: CliCommandDefinition = {
  command: 'call <tool> <action>',
  describe: "Run an action of any analytics tool, a plugin's own too, with its parameters as JSON (--params '{\"limit\":5}')",
  options: { params: { type: 'string', describe: 'the parameters besides action, a JSON object' } },
  async run(args, ctx) {
    let params: unknown = {};
    if (args.params !== undefined) {
      try {
        params = JSON.parse(String(args.params));
      } catch {
        throw new Error('--params must be a JSON object, e.g. --params \'{"limit":5}\'');
      }
    }
    if (!params || typeof params !== 'object' || Array.isArray(params)) throw new Error('--params must be a JSON object');
    const body = { ...(params as Record<string, unknown>), action: String(args.action) };
    const res = await ctx.call<{ results: unknown[]; results_count: number }>('POST', path(String(args.tool)), { body });
    ctx.print(res, `${table(res.results)}\n(${res.results_count} ${res.results_count === 1 ? 'row' : 'rows'})`);
  },
};

export const analyticsNoun: CliNounDefinition = defineCliNoun({
  noun: 'analytics',
  describe: 'Analytics tools: configure them and run their reports',
  commands: [configure, show, call, ...TOOL_IDS.map(runCommand)],
});
