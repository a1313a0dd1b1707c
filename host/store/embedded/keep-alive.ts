/**
 * better-sqlite3 12.x on Node 24 aborts the process (`Assertion failed: (env) != nullptr`
 * in RemoveEnvironmentCleanupHook) when the garbage collector finalizes a Statement or
 * Database wrapper (WiseLibs/better-sqlite3#1515, closed without a fix; 13.x needs Node
 * 22+ and we support Node 20). So no wrapper is ever left to the collector: each is kept
 * here for the life of the process. Closing a database still frees its SQLite memory;
 * only the small JS wrappers stay. Statements are cached per SQL text, so a long-running
 * host prepares a bounded set; never call db.pragma() per operation (it prepares anew).
 */
const keepAlive: unknown[] = [];

export function retain<T>(wrapper: T): T {
  keepAlive.push(wrapper);
  return wrapper;
}
