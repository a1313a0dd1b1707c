import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import type { ApiSession } from '../api-session.js';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { confirm, yesOption } from '../confirm.js';
import { nounHeader } from './catalogue.js';

type WpPost = Record<string, unknown> & {
  id: number;
  status: string;
  date: string;
  slug: string;
  type: string;
  title: { rendered: string; raw?: string };
};

const WP = '/wp/v2';

/** The rest_base of a post type, from GET /wp/v2/types/{type} (plugins register their own). */
async function restBase(api: ApiSession, type: string): Promise<string> {
  try {
    const res = await api.fetchApi<{ rest_base: string }>('GET', `${WP}/types/${encodeURIComponent(type)}`);
    return res.body.rest_base;
  } catch (error) {
    throw new CliError(`Unknown post type '${type}': ${(error as Error).message}`);
  }
}

const typeOption = { type: { type: 'string', default: 'post', describe: 'Post type (post, or one a plugin registers)' } } as const;
const titleOf = (post: WpPost) => post.title.raw ?? post.title.rendered;

/** `flowhost posts ...`: the content API (wp/v2) from the command line. */
export const posts: CliNoun = {
  ...nounHeader('posts'),
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Posts of a type, newest first',
        (c) =>
          c
            .options(typeOption)
            .option('status', { type: 'string', default: 'any', describe: 'publish, draft, pending, private, trash, any, or a comma list' })
            .option('search', { type: 'string', describe: 'Words in the title or content' })
            .option('page', { type: 'number', default: 1 })
            .option('per-page', { type: 'number', default: 20, describe: '1 to 100' })
            .options(jsonOption),
        async (argv) => {
          await withApi(argv, async (api) => {
            const base = await restBase(api, argv.type);
            const res = await api.fetchApi<WpPost[]>('GET', `${WP}/${base}`, {
              query: { context: 'edit', status: argv.status, search: argv.search, page: argv.page, per_page: argv.perPage },
            });
            const total = Number(res.headers.get('x-wp-total') ?? res.body.length);
            const totalPages = Number(res.headers.get('x-wp-totalpages') ?? 1);
            if (argv.json) {
              printJson({ total, total_pages: totalPages, page: argv.page, per_page: argv.perPage, posts: res.body });
              return;
            }
            printRows(
              res.body.map((p) => ({ id: p.id, status: p.status, date: p.date.replace('T', ' '), slug: p.slug, title: titleOf(p) })),
            );
            process.stdout.write(`Page ${argv.page} of ${Math.max(1, totalPages)} (${total} ${total === 1 ? 'post' : 'posts'})\n`);
          });
        },
      )
      .command(
        'get <id>',
        'One post with its fields and raw content',
        (c) => c.positional('id', { type: 'number', demandOption: true }).options(typeOption).options(jsonOption),
        async (argv) => {
          await withApi(argv, async (api) => {
            const base = await restBase(api, argv.type);
            const post = (await api.fetchApi<WpPost>('GET', `${WP}/${base}/${argv.id}`, { query: { context: 'edit' } })).body;
            if (argv.json) return printJson(post);
            const content = (post.content as { raw?: string; rendered: string } | undefined) ?? { rendered: '' };
            const rows: Array<[string, unknown]> = [
              ['id', post.id],
              ['type', post.type],
              ['status', post.status],
              ['title', titleOf(post)],
              ['slug', post.slug],
              ['date', post.date],
              ['modified', post.modified],
              ['author', post.author],
              ['link', post.link],
            ];
            for (const [key, value] of Object.entries(post)) {
              // Taxonomy fields (categories, tags, a plugin's own) are arrays of term ids.
              if (Array.isArray(value) && key !== 'meta') rows.push([key, value.join(', ')]);
            }
            for (const [key, value] of rows) process.stdout.write(`${key.padEnd(10)} ${String(value ?? '')}\n`);
            process.stdout.write(`\n${content.raw ?? content.rendered}\n`);
          });
        },
      )
      .command(
        'delete <id>',
        'Move a post to the trash (--force: delete it for good, asking first; --yes to skip)',
        (c) =>
          c
            .positional('id', { type: 'number', demandOption: true })
            .options(typeOption)
            .option('force', { type: 'boolean', default: false, describe: 'Delete instead of trashing' })
            .options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          await withApi(argv, async (api) => {
            const base = await restBase(api, argv.type);
            // The trash can be undone; deleting for good is asked first (the post read before, so a missing one is named).
            if (argv.force) {
              await api.fetchApi('GET', `${WP}/${base}/${argv.id}`, { query: { context: 'edit' } });
              await confirm(argv, `Delete post ${argv.id} for good`);
            }
            const res = (
              await api.fetchApi<Record<string, unknown>>('DELETE', `${WP}/${base}/${argv.id}`, {
                query: argv.force ? { force: 'true' } : {},
              })
            ).body;
            if (argv.json) return printJson(res);
            process.stdout.write(argv.force ? `Post ${argv.id} deleted.\n` : `Post ${argv.id} moved to the trash.\n`);
          });
        },
      )
      .demandCommand(1, 'Name a verb: list, get or delete')
      .strict(),
};
