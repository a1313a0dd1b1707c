#!/usr/bin/env node
// The whole build: the server (tsconfig.json), the console's browser modules (their own
// tsconfig: DOM types, ES modules for the browser), and the console's style sheet copied
// beside them. `npm install` runs it (prepare), `npm start` when a source is newer.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
const web = join(root, 'dist/plugins/console/web');
mkdirSync(web, { recursive: true });
copyFileSync(join(root, 'plugins/console/web/console.css'), join(web, 'console.css'));
