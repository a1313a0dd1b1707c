#!/usr/bin/env node
// The whole build: the server (tsconfig.json), the console's browser modules (their own
// tsconfig: DOM types, ES modules for the browser), and the console's style sheet copied
// beside them. `npm install` runs it (prepare), `npm start` when a source is newer.
//
// tsc builds incrementally (its build info in dist/, so removing dist/ starts afresh): a
// build with nothing changed takes seconds instead of half a minute, and `npm test` builds
// first every time. As tsc then rewrites only what changed, the build ends by writing
// dist/.built, the time scripts/build-if-needed.mjs compares the sources with, and the list
// of the source files it read.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './source-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const tsc = join(root, 'node_modules/typescript/bin/tsc');
for (const project of ['tsconfig.json', 'plugins/console/web/tsconfig.json']) {
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, project)], { stdio: 'inherit', cwd: root });
  } catch (error) {
    // tsc has printed its errors; a stack trace of this script would only bury them.
    process.exit(error.status ?? 1);
  }
}
await import('./compile-validators.mjs');
await (await import('./bundle.mjs')).bundle();
const web = join(root, 'dist/plugins/console/web');
mkdirSync(web, { recursive: true });
copyFileSync(join(root, 'plugins/console/web/console.css'), join(web, 'console.css'));
writeFileSync(join(root, 'dist/.built'), `${new Date().toISOString()}\n${sourceFiles(root).files.join('\n')}\n`);
