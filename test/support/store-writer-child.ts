// Child process for the embedded store's lock and durability tests. Opens a store file
// exclusively, then by mode:
//   write: inserts documents forever, printing each _id only after its insert resolved
//          (stdout to a pipe is synchronous on Linux, so a printed id was acknowledged);
//   hold:  prints "holding" and keeps the file locked until killed.
import { openEmbeddedStore } from '../../host/store/embedded/index.js';

const [file, mode] = process.argv.slice(2);
if (!file || (mode !== 'write' && mode !== 'hold')) {
  process.stderr.write('usage: store-writer-child <file> write|hold\n');
  process.exit(2);
}
const store = openEmbeddedStore({ file, exclusive: true });
if (mode === 'hold') {
  process.stdout.write('holding\n');
  setInterval(() => undefined, 1000);
} else {
  const acks = store.collection('acks');
  for (let i = 0; ; i++) {
    const doc = await acks.insertOne({ n: i, at: new Date(), tags: [`t${i % 3}`] });
    process.stdout.write(`${doc._id}\n`);
  }
}
