// A host that dies holding a job: opens the store named on the command line, claims the
// one 'crash' job with a 1 s lock lifetime, prints `started <id>` and hangs until the
// parent SIGKILLs it, so the lock is left behind exactly as a crashed process leaves it.
//   node scheduler-crash-child.js embedded <file> | mongodb <url>
import type { DocumentStore } from '../../../core/store/port.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { createScheduler } from '../../../host/scheduler/index.js';

const [kind, location] = process.argv.slice(2);
if (!location || (kind !== 'embedded' && kind !== 'mongodb')) {
  console.error('usage: scheduler-crash-child.js embedded <file> | mongodb <url>');
  process.exit(2);
}
const store: DocumentStore = kind === 'embedded' ? openEmbeddedStore({ file: location }) : await openMongoStore({ url: location });
const agenda = await createScheduler({ store, name: 'crashing-child', processEvery: 50, lockLifetime: 1000 });
agenda.define('crash', async (job) => {
  console.log(`started ${String(job.attrs._id)}`);
  await new Promise(() => {});
});
await agenda.start();
