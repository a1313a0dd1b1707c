// Module hooks for a child process: appends each file URL it resolves to the file named by
// IMPORT_TRACE_FILE, one per line. Written synchronously from the hooks' own thread: a
// command that ends with process.exit() (the CLI does) would lose buffered stderr there.
import { appendFileSync } from 'node:fs';

const file = process.env.IMPORT_TRACE_FILE;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file && resolved.url.startsWith('file:')) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
