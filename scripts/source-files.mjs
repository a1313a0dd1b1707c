// The files a build reads: what tsconfig.json includes (the server, the suites, the
// benchmarks, the example), the console's style sheet and the build's own scripts; not
// what builds and tests write beside them (node_modules, dist, the MongoDB stand-in's
// target/) nor the suites' recorded times. scripts/build.mjs lists them in dist/.built;
// scripts/build-if-needed.mjs builds again when one is newer than that, or when the list
// differs (a file added, removed or renamed: a rename keeps the file's time).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const DIRS = ['core', 'host', 'plugins', 'sdk', 'examples', 'test', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', 'target']);

/** Every source file, as paths inside `root` in sorted order, and the newest one's time. */
export function sourceFiles(root) {
  const files = [];
  let newest = 0;
  const walk = (dir) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (SKIP.has(name)) continue;
      const full = join(dir, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (isSource(relative(root, full), name)) {
        files.push(relative(root, full));
        newest = Math.max(newest, stat.mtimeMs);
      }
    }
  };
  for (const dir of DIRS) walk(join(root, dir));
  return { files: files.sort(), newest };
}

function isSource(path, name) {
  if (name === 'suite-times.json') return false;
  return /\.(ts|tsx|css|json)$/.test(name) || (path.startsWith('scripts/') && name.endsWith('.mjs'));
}
