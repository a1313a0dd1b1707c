/**
 * `npm start` runs the server as `sh -c "node ... serve"`. `kill <npm's pid>` makes npm
 * pass SIGTERM to that shell, which dies without passing it on, so the server went on
 * running, orphaned. A server started by a package-manager script (npm, yarn and pnpm all
 * set npm_lifecycle_event) therefore watches its parent and stops, as on SIGTERM, when
 * the parent is gone. Any other parent (a terminal, systemd, a container's init) is left
 * alone: `nohup flowhost serve &` must outlive its shell.
 */
export function startedByPackageScript(env: NodeJS.ProcessEnv): boolean {
  return typeof env.npm_lifecycle_event === 'string' && env.npm_lifecycle_event !== '';
}

/**
 * Calls `onOrphaned` once the parent process `parent` has gone (the parent pid is no longer
 * it); returns a stop function. Pass the parent pid read when the process began: a parent
 * that dies while the host is still starting is noticed at the first check.
 */
export function watchParent(parent: number, onOrphaned: () => void, everyMs = 250): () => void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, everyMs);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
