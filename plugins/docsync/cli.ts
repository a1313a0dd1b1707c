/**
 * `flowhost project ensure|tree` and `flowhost docs sync`. A sync starts a job and follows it:
 * a progress bar on a terminal (cli-progress), plain lines otherwise, only the result with --json.
 */
import { defineCliNoun, type CliContext, type CliNounDefinition } from '../../sdk/index.js';

const NS = '/docsync/v1';

interface TreeNode {
  id: number;
  name: string;
  slug: string;
  count: number;
  project_type: string;
  children: TreeNode[];
  children_truncated?: boolean;
}

interface JobView {
  job_id: string;
  status: string;
  progress: { files_done: number; files_total: number; repository: string; repos_done: number; repos_total: number };
  error: string | null;
  result: null | {
    repos_synced: number;
    total_added: number;
    total_updated: number;
    total_removed: number;
    total_unchanged: number;
    blobs_fetched: number;
    errors: Array<{ code: string; message: string }>;
    message: string;
  };
}

function treeLines(nodes: TreeNode[], indent = ''): string[] {
  return nodes.flatMap((n) => [
    `${indent}${n.name} (${n.slug}) [id ${n.id}, ${n.project_type}, ${n.count} doc${n.count === 1 ? '' : 's'}]${n.children_truncated ? ` … (more below: --parent ${n.id})` : ''}`,
    ...treeLines(n.children, `${indent}  `),
  ]);
}

async function follow(ctx: CliContext, jobId: string): Promise<JobView> {
  const tty = !ctx.json && process.stderr.isTTY === true;
  // cli-progress loads only for a bar on a terminal (this module is part of the plugin a host loads).
  const cliProgress = tty ? (await import('cli-progress')).default : null;
  const bar = cliProgress
    ? new cliProgress.SingleBar(
        { format: 'Syncing {repo} [{bar}] {value}/{total} files', stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let started = false;
  let lastLine = '';
  for (;;) {
    const job = await ctx.call<JobView>('GET', `${NS}/sync/jobs/${jobId}`);
    const p = job.progress;
    if (bar) {
      if (!started) bar.start(Math.max(p.files_total, 0), p.files_done, { repo: p.repository || '…' });
      started = true;
      bar.setTotal(p.files_total);
      bar.update(p.files_done, { repo: p.repository || '…' });
    } else if (!ctx.json && p.repository) {
      const line = `${p.repository}: ${p.files_done}/${p.files_total} files (repository ${Math.min(p.repos_done + 1, p.repos_total)} of ${p.repos_total})`;
      if (line !== lastLine) process.stderr.write(`${line}\n`);
      lastLine = line;
    }
    if (job.status === 'completed' || job.status === 'failed') {
      bar?.stop();
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const projectNoun: CliNounDefinition = defineCliNoun({
  noun: 'project',
  describe: 'Documentation projects (the project taxonomy)',
  commands: [
    {
      command: 'ensure <project-slug>',
      describe: 'Create the top-level project term if missing; set its repository and listing addresses',
      options: {
        name: { type: 'string', describe: 'The project name (default: the slug)' },
        github_url: { type: 'string', describe: 'The repository address (https://github.com/owner/repo)' },
        wp_url: { type: 'string', describe: 'The public listing address' },
      },
      async run(args, ctx) {
        const slug = String(args['project-slug'] ?? args.projectSlug);
        const meta: Record<string, string> = {};
        if (typeof args.github_url === 'string') meta.github_url = args.github_url;
        if (typeof args.wp_url === 'string') meta.wp_url = args.wp_url;
        const resolved = await ctx.call<{ leaf_term_id: number; created: string[] }>('POST', `${NS}/project/resolve`, {
          body: { path: [slug], create_missing: true, project_meta: meta },
        });
        const body: Record<string, unknown> = { meta };
        if (typeof args.name === 'string') body.name = args.name;
        const term = await ctx.call<{ id: number; name: string; slug: string; meta: { github_url: string; wp_url: string } }>(
          'PUT',
          `${NS}/project/${resolved.leaf_term_id}`,
          { body },
        );
        const created = resolved.created.length > 0;
        ctx.print(
          { ...term, created },
          `${created ? 'Created' : 'Found'} project ${term.name} (${term.slug}, id ${term.id})${term.meta.github_url ? `; repository ${term.meta.github_url}` : ''}${term.meta.wp_url ? `; listing ${term.meta.wp_url}` : ''}`,
        );
      },
    },
    {
      command: 'tree',
      describe: 'Show the project taxonomy as a tree',
      options: {
        parent: { type: 'number', describe: 'Start below this term (0: the top level)', default: 0 },
        depth: { type: 'number', describe: 'Levels to show', default: 3 },
      },
      async run(args, ctx) {
        const tree = await ctx.call<TreeNode[]>('GET', `${NS}/project/tree`, {
          query: { parent: Number(args.parent ?? 0), depth: Number(args.depth ?? 3) },
        });
        ctx.print(tree, tree.length ? treeLines(tree).join('\n') : 'No project terms.');
      },
    },
  ],
});

export const docsNoun: CliNounDefinition = defineCliNoun({
  noun: 'docs',
  describe: 'Documentation sync from the source-hosting service',
  commands: [
    {
      command: 'sync [term-id]',
      describe: "Sync one project's repository, or every project's with --all",
      options: {
        all: { type: 'boolean', describe: 'Every project with a repository address' },
        force: { type: 'boolean', describe: 'Fetch and read every file again, even one whose SHA is unchanged' },
      },
      async run(args, ctx) {
        const id = args['term-id'] ?? args.termId;
        if (!args.all && (id === undefined || !/^\d+$/.test(String(id)))) throw new Error('Name a project term id, or use --all');
        const path = args.all ? `${NS}/sync/all` : `${NS}/sync/term/${String(id)}`;
        const started = await ctx.call<{ job_id: string }>('POST', path, { body: { force: args.force === true, wait: 0 } });
        const job = await follow(ctx, started.job_id);
        if (job.status === 'failed') throw new Error(`The sync failed: ${job.error ?? 'unknown error'}`);
        const r = job.result!;
        const errors = r.errors.map((e) => `  ${e.code}: ${e.message}`).join('\n');
        ctx.print({ job_id: job.job_id, ...r }, `${r.message}${errors ? `\nErrors:\n${errors}` : ''}`);
      },
    },
  ],
});

export const cliNouns: CliNounDefinition[] = [projectNoun, docsNoun];
