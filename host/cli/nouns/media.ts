import type { Argv } from 'yargs';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

type Attachment = Record<string, unknown> & {
  id: number;
  title: { rendered: string };
  mime_type: string;
  source_url: string;
  media_details: { filesize: number };
};

/** `flowhost media ...`: the media library (wp/v2/media), through the API. */
export const media: CliNoun = {
  ...nounHeader('media'),
  builder: (y: Argv) =>
    y
      .command(
        'upload <path>',
        'Upload a file to the media library (streamed; progress on stderr for large files)',
        (c) =>
          c
            .positional('path', { type: 'string', demandOption: true, describe: 'The file to upload' })
            .option('title', { type: 'string', describe: 'Title (default: the file name)' })
            .option('alt', { type: 'string', describe: 'Alternative text' })
            .options(jsonOption),
        async (argv) => {
          const item = await withApi(argv, (api) =>
            api.upload<Attachment>('/wp/v2/media', String(argv.path), { query: { title: argv.title, alt_text: argv.alt } }),
          );
          if (argv.json) printJson(item);
          else console.log(`Uploaded media ${item.id}: ${item.source_url}`);
        },
      )
      .command(
        'list',
        'Media library items, newest first',
        (c) =>
          c
            .option('limit', { type: 'number', default: 20, describe: 'At most this many (1-100)' })
            .option('type', { type: 'string', describe: 'image, video, audio, application or text' })
            .options(jsonOption),
        async (argv) => {
          const items = await withApi(argv, (api) =>
            api.callApi<Attachment[]>('GET', '/wp/v2/media', {
              query: { per_page: Math.max(1, Math.min(100, Number(argv.limit) || 20)), media_type: argv.type },
            }),
          );
          const list = Array.isArray(items) ? items : [];
          if (argv.json) printJson(list);
          else
            printRows(
              list.map((m) => ({
                id: m.id,
                title: m.title.rendered,
                type: m.mime_type,
                size: m.media_details.filesize,
                url: m.source_url,
              })),
            );
        },
      )
      .demandCommand(1, 'Name a verb: upload, list')
      .strict(),
};
