// The scheduler behaviour suite on the embedded store: ':memory:' for single-store tests,
// a temp file opened twice (and by a child process) for the cross-host ones.
// test-runner: waits (Agenda's real-time polls: about 6 s, under 1 s of CPU)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { schedulerBehaviour } from './scheduler-behaviour.js';

const dir = mkdtempSync(join(tmpdir(), 'flowhost-scheduler-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let files = 0;

schedulerBehaviour('embedded', {
  open: async () => openEmbeddedStore({ file: ':memory:' }),
  openShared: async () => {
    const file = join(dir, `jobs-${files++}.db`);
    return { a: openEmbeddedStore({ file }), b: openEmbeddedStore({ file }), childArgs: ['embedded', file] };
  },
}).run();
