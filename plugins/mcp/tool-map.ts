/**
 * Which REST route each MCP tool stands for, and its MCP annotations: the permission
 * mapping docs/mcp.md publishes and the tests check. A tool may be used by exactly the
 * callers the route admits (its permission is read from the route table at call time, so
 * a route's permission and its tool's never drift apart).
 *
 * Two kinds of tool:
 * - `rest` tools are the route itself: their arguments are the route's path, query and
 *   body parameters, and a call is the request in process (`services.api.request`) as the
 *   caller, so the route's own permission check, validation and error bodies apply.
 * - chat tools (the `chat.tools` point: chat, global-tools, docsync, analytics...) run as
 *   they run for chat, after the caller passed the permission of the route they stand for.
 *   A contributed tool not named here stands for POST /chat, its only REST door
 *   (manage_options).
 */

/** A route by namespace (undefined: the core one), method and path as the surface declares it. */
export interface RouteRef {
  namespace?: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

export interface Annotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Reaches outside this server (the web, a remote service). */
  openWorldHint: boolean;
}

export interface RestTool {
  name: string;
  description: string;
  route: RouteRef;
  annotations: Annotations;
  /** Query parameters the tool always sends (left out of its arguments): a narrower face of a list route. */
  fixedQuery?: Readonly<Record<string, string>>;
}

const read = (title: string): Annotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
const write = (title: string, idempotent = false): Annotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: idempotent,
  openWorldHint: false,
});
const remove = (title: string): Annotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
});
/** A change that cannot be taken back by calling again (a decision, a restore): destructive, not idempotent. */
const decide = (title: string): Annotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
});
const outward = (annotations: Annotations): Annotations => ({ ...annotations, openWorldHint: true });

/** The admin operations chat has no tool for, served as their REST routes. */
export const REST_TOOLS: readonly RestTool[] = [
  {
    name: 'list_pipelines',
    description: "List pipelines (templates of steps) with their steps; `include_flows` adds each pipeline's flows.",
    route: { method: 'GET', path: '/pipelines' },
    annotations: read('List pipelines'),
  },
  {
    name: 'get_pipeline',
    description: 'Read one pipeline with its steps and their configuration.',
    route: { method: 'GET', path: '/pipelines/{id}' },
    annotations: read('Read a pipeline'),
  },
  {
    name: 'delete_pipeline',
    description: 'Delete a pipeline and every flow made from it.',
    route: { method: 'DELETE', path: '/pipelines/{id}' },
    annotations: remove('Delete a pipeline'),
  },
  {
    name: 'list_flows',
    description: "List flows (a pipeline's configured instances), optionally of one pipeline.",
    route: { method: 'GET', path: '/flows' },
    annotations: read('List flows'),
  },
  {
    name: 'get_flow',
    description: 'Read one flow: its schedule, steps, handlers and settings (secrets masked).',
    route: { method: 'GET', path: '/flows/{flow_id}' },
    annotations: read('Read a flow'),
  },
  {
    name: 'delete_flow',
    description: 'Delete a flow (its jobs stay in the history).',
    route: { method: 'DELETE', path: '/flows/{flow_id}' },
    annotations: remove('Delete a flow'),
  },
  {
    name: 'list_jobs',
    description: 'List jobs (runs), newest first, filtered by flow, pipeline or status.',
    route: { method: 'GET', path: '/jobs' },
    annotations: read('List jobs'),
  },
  {
    name: 'get_job',
    description: "Read one job: its status, each step's outcome and the run's data; `include: \"packets\"` adds each step's items.",
    route: { method: 'GET', path: '/jobs/{job_id}' },
    annotations: read('Read a job'),
  },
  {
    name: 'retry_job',
    description: 'Retry a failed job, from its failed step (default) or from the start.',
    route: { method: 'POST', path: '/jobs/{job_id}/retry' },
    annotations: write('Retry a job'),
  },
  {
    name: 'cancel_job',
    description: 'Cancel a pending or running job.',
    route: { method: 'POST', path: '/jobs/{job_id}/cancel' },
    annotations: write('Cancel a job', true),
  },
  {
    name: 'list_waiting_jobs',
    description:
      'List the jobs waiting at an approval step, each with its items (id, title, content, decision so far) and its timeout: what approve_job and reject_job decide.',
    route: { method: 'GET', path: '/jobs' },
    fixedQuery: { status: 'waiting' },
    annotations: read('List jobs waiting for review'),
  },
  {
    name: 'approve_job',
    description:
      "Approve a waiting job's items: `items` (their ids, as list_waiting_jobs shows them) or, without it, every pending item. Once no item is pending the run goes on with the approved ones (it may publish them).",
    route: { method: 'POST', path: '/jobs/{job_id}/approve' },
    annotations: outward(decide('Approve a waiting job')),
  },
  {
    name: 'reject_job',
    description:
      "Reject a waiting job's items: `items` (their ids) or, without it, every pending item. Rejected items are dropped; once no item is pending the run goes on with the approved ones.",
    route: { method: 'POST', path: '/jobs/{job_id}/reject' },
    annotations: outward(decide('Reject a waiting job')),
  },
  {
    name: 'get_review_links',
    description:
      "A waiting job's signed one-time links: the review page for a person without an account and, for a webhook-mode wait, the delivery URL; with their expiry.",
    route: { method: 'GET', path: '/jobs/{job_id}/review-links' },
    annotations: read('Read review links'),
  },
  ...revisionTools('flow', '/flows/{flow_id}'),
  ...revisionTools('pipeline', '/pipelines/{id}'),
  {
    name: 'read_logs',
    description: 'Search the log: entries by level, time, job, flow, pipeline or text.',
    route: { method: 'GET', path: '/logs' },
    annotations: read('Read the log'),
  },
  {
    name: 'list_handlers',
    description: 'List the handlers (fetch, publish, update) with their settings schemas.',
    route: { method: 'GET', path: '/handlers' },
    annotations: read('List handlers'),
  },
  {
    name: 'run_analytics_tool',
    description:
      "Run an analytics tool (search-stats, crawler-stats, site-analytics, page-performance or a plugin's own): `tool` names it, `body` holds its `action` and parameters.",
    route: { method: 'POST', path: '/analytics/{tool}' },
    annotations: outward(read('Run an analytics tool')),
  },
];

/** A flow's or a pipeline's history: list, read one, diff two, restore one. */
function revisionTools(kind: 'flow' | 'pipeline', base: string): RestTool[] {
  return [
    {
      name: `list_${kind}_revisions`,
      description: `List a ${kind}'s revisions (its recorded changes), newest first: who made each, with which client, and what it touched.`,
      route: { method: 'GET', path: `${base}/revisions` },
      annotations: read(`List ${kind} revisions`),
    },
    {
      name: `get_${kind}_revision`,
      description: `Read one revision of a ${kind} with its snapshot: the configuration after that change (secrets masked).`,
      route: { method: 'GET', path: `${base}/revisions/{revision}` },
      annotations: read(`Read a ${kind} revision`),
    },
    {
      name: `diff_${kind}_revisions`,
      description: `What changed between two revisions of a ${kind} (\`from\`, \`to\`): each changed setting with its value before and after (secrets masked).`,
      route: { method: 'GET', path: `${base}/revisions/diff` },
      annotations: read(`Compare ${kind} revisions`),
    },
    {
      name: `restore_${kind}_revision`,
      description: `Lay a revision back over the ${kind}: its configuration becomes the current one, recorded as a new revision (the present one stays in the history).`,
      route: { method: 'POST', path: `${base}/revisions/{revision}/restore` },
      annotations: decide(`Restore a ${kind} revision`),
    },
  ];
}

/** POST /chat: the route a contributed chat tool is reachable through when no other is named. */
export const CHAT_ROUTE: RouteRef = { method: 'POST', path: '/chat' };

/** The chat tools Flowhost ships, by name: the route each stands for and its annotations. */
export const CHAT_TOOL_ROUTES: Readonly<Record<string, { route: RouteRef; annotations: Annotations }>> = {
  create_pipeline: { route: { method: 'POST', path: '/pipelines' }, annotations: write('Create a pipeline') },
  add_pipeline_step: { route: { method: 'POST', path: '/pipelines/{id}/steps' }, annotations: write('Add a pipeline step') },
  configure_pipeline_step: {
    route: { method: 'PUT', path: '/pipelines/steps/{pipeline_step_id}/config' },
    annotations: write('Configure a pipeline step', true),
  },
  create_flow: { route: { method: 'POST', path: '/flows' }, annotations: write('Create a flow') },
  update_flow: { route: { method: 'PATCH', path: '/flows/{flow_id}' }, annotations: write('Update a flow', true) },
  copy_flow: { route: { method: 'POST', path: '/flows/{flow_id}/duplicate' }, annotations: write('Copy a flow') },
  configure_flow_step: {
    route: { method: 'PATCH', path: '/flows/steps/{flow_step_id}/config' },
    annotations: write('Configure a flow step', true),
  },
  run_flow: { route: { method: 'POST', path: '/execute' }, annotations: outward(write('Run a flow')) },
  execute_workflow: { route: { method: 'POST', path: '/execute' }, annotations: outward(write('Execute a workflow')) },
  get_handler_defaults: { route: { method: 'GET', path: '/settings/handler-defaults' }, annotations: read('Read handler defaults') },
  set_handler_defaults: {
    route: { method: 'PUT', path: '/settings/handler-defaults/{handler_slug}' },
    annotations: write('Set handler defaults', true),
  },
  handler_documentation: { route: { method: 'GET', path: '/handlers/{slug}' }, annotations: read('Handler documentation') },
  validate_credentials: { route: { method: 'GET', path: '/auth/{handler_slug}/status' }, annotations: read('Check credentials') },
  docsync_search_docs: { route: { namespace: 'docsync/v1', method: 'GET', path: '/docs' }, annotations: read('Search the documentation') },
  docsync_get_doc: {
    route: { namespace: 'docsync/v1', method: 'GET', path: '/docs/{id}' },
    annotations: read('Read a documentation page'),
  },
  docsync_sync: {
    route: { namespace: 'docsync/v1', method: 'POST', path: '/sync/all' },
    annotations: outward(write('Sync the documentation')),
  },
  local_search: { route: { namespace: 'wp/v2', method: 'GET', path: '/posts' }, annotations: read('Search this site') },
  cms_post_reader: { route: { namespace: 'wp/v2', method: 'GET', path: '/posts' }, annotations: read('Read a post') },
  web_search: { route: CHAT_ROUTE, annotations: outward(read('Search the web')) },
  web_fetch: { route: CHAT_ROUTE, annotations: outward(read('Fetch a web page')) },
  api_query: { route: CHAT_ROUTE, annotations: read('Query this API') },
  // The analytics tools' chat faces (their POST /analytics/{tool} checks each tool's own permission).
  search_stats: { route: CHAT_ROUTE, annotations: outward(read('Search statistics')) },
  crawler_stats: { route: CHAT_ROUTE, annotations: outward(read('Crawler statistics')) },
  site_analytics: { route: CHAT_ROUTE, annotations: outward(read('Site analytics')) },
  page_performance: { route: CHAT_ROUTE, annotations: outward(read('Page performance')) },
  docsync_reset_docs: { route: CHAT_ROUTE, annotations: remove('Reset the documentation') },
  // mcp-client's chat face (a server registered with `chat: true`): it reaches other MCP servers'
  // tools, whatever they do, so a call is destructive as far as any MCP host can tell.
  mcp_tools: { route: CHAT_ROUTE, annotations: outward(read('List external MCP tools')) },
  mcp_call: {
    route: CHAT_ROUTE,
    annotations: {
      title: 'Call an external MCP tool',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
  },
};

/**
 * A contributed chat tool Flowhost does not know: its own `title` (else one made from its
 * name), destructive as it says.
 */
export function unknownChatTool(name: string, destructive: boolean, ownTitle?: string): { route: RouteRef; annotations: Annotations } {
  const title = ownTitle ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return {
    route: CHAT_ROUTE,
    annotations: { title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: false, openWorldHint: true },
  };
}
