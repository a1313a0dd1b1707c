import type { Argv, ArgumentsCamelCase } from 'yargs';
import { readFileSync } from 'node:fs';
import { CliError } from '../admin-client.js';
import { jsonOption, withApi, type CliNoun, type Common } from '../cli-runtime.js';
import { printJson } from '../output.js';
import { nounHeader } from './catalogue.js';

/** `flowhost export <id> [--pipeline]`: the portable document on stdout (no secrets). */
export const exportNoun: CliNoun = {
  ...nounHeader('export'),
  builder: (y: Argv) =>
    y
      .positional('id', { type: 'number', demandOption: true, describe: 'A flow id (or a pipeline id with --pipeline)' })
      .option('pipeline', { type: 'boolean', default: false, describe: 'The id is a pipeline: export it with every flow' })
      // The document is JSON either way; --json is taken, as on every command that prints data.
      .options(jsonOption),
  async handler(argv: ArgumentsCamelCase<Common & { id?: number; pipeline?: boolean }>) {
    const id = Number(argv.id);
    if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`'${String(argv.id)}' is not an id`);
    const path = argv.pipeline ? `/pipelines/${id}/export` : `/flows/${id}/export`;
    const res = await withApi(argv, (api) => api.call<{ data: Record<string, unknown> }>('GET', path));
    printJson(res.data);
    const omitted = (res.data.secrets_omitted as string[] | undefined) ?? [];
    if (omitted.length) process.stderr.write(`flowhost: ${omitted.length} secret setting(s) left out: ${omitted.join(', ')}\n`);
  },
};

/** `flowhost import <file|->`: a document from `flowhost export` becomes a new pipeline with its flows. */
export const importNoun: CliNoun = {
  ...nounHeader('import'),
  builder: (y: Argv) =>
    y.positional('file', { type: 'string', demandOption: true, describe: "The JSON file, or '-' for stdin" }).options(jsonOption),
  async handler(argv: ArgumentsCamelCase<Common & { file?: string }>) {
    // yargs hands a lone '-' over as an empty string.
    const file = argv.file === '' || argv.file === undefined ? '-' : String(argv.file);
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new CliError(`Could not read ${file === '-' ? 'stdin' : file}: ${(error as Error).message}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text) as unknown;
    } catch (error) {
      throw new CliError(`${file === '-' ? 'stdin' : file} is not JSON: ${(error as Error).message}`);
    }
    // The API's own answer ({success, data: document}) is accepted too.
    if (
      doc &&
      typeof doc === 'object' &&
      !('flowhost_export' in doc) &&
      'data' in doc &&
      (doc as { data?: { flowhost_export?: unknown } }).data?.flowhost_export !== undefined
    )
      doc = (doc as { data: unknown }).data;
    const res = await withApi(argv, (api) =>
      api.call<{ data: { pipeline_id: number; pipeline_name: string; flow_ids: number[]; secrets_omitted: string[] } }>(
        'POST',
        '/flows/import',
        { body: doc },
      ),
    );
    const d = res.data;
    if (argv.json) {
      printJson(d);
      return;
    }
    console.log(
      `Imported pipeline ${d.pipeline_id} "${d.pipeline_name}" with ${d.flow_ids.length} flow(s): ${d.flow_ids.join(', ') || 'none'}`,
    );
    if (d.secrets_omitted.length)
      console.log(
        `Secrets to set before running (flowhost flows config <id> --set-secret <step>.<key>, the value on standard input):\n  ${d.secrets_omitted.join('\n  ')}`,
      );
  },
};
