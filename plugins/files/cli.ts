/** `flowhost files upload|list|delete`: the files plugin's uploads from the command line. */
import { defineCliNoun } from '../../sdk/index.js';

function human(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`;
}

export const filesNoun = defineCliNoun({
  noun: 'files',
  describe: 'Uploaded files (the files plugin)',
  commands: [
    {
      command: 'upload <path>',
      describe: 'Upload a file',
      async run(args, ctx) {
        const res = await ctx.upload<{ file: Record<string, unknown> }>('/automation/v1/files', String(args.path));
        ctx.print(res.file, `Uploaded ${String(res.file.filename)} as ${String(res.file.id)} (${human(Number(res.file.size))})`);
      },
    },
    {
      command: 'list',
      describe: 'List uploaded files',
      async run(_args, ctx) {
        const res = await ctx.call<{ files: Array<Record<string, unknown>>; total: number }>('GET', '/automation/v1/files', {
          query: { per_page: 100 },
        });
        const lines = res.files.map(
          (f) => `${String(f.id)}  ${String(f.created_at)}  ${human(Number(f.size)).padStart(9)}  ${String(f.mime)}  ${String(f.filename)}`,
        );
        ctx.print(res.files, lines.length ? lines.join('\n') : 'No files.');
      },
    },
    {
      command: 'delete <id>',
      describe: 'Delete an uploaded file (asks first; --yes to skip)',
      destructive: true,
      async run(args, ctx) {
        await ctx.confirm(`Delete uploaded file ${String(args.id)}`);
        const res = await ctx.call<{ file: Record<string, unknown> }>(
          'DELETE',
          `/automation/v1/files/${encodeURIComponent(String(args.id))}`,
        );
        ctx.print(res, `Deleted ${String(res.file.filename)} (${String(res.file.id)})`);
      },
    },
  ],
});
