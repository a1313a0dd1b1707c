// Module hooks for a child process: prints each file URL it resolves on stderr, one per
// line ("IMPORT <url>"), so a test can see what a command loaded.
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:')) process.stderr.write(`IMPORT ${resolved.url}\n`);
  return resolved;
}
