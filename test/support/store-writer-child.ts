// Child process for the durability and lock tests: opens an embedded store file and
//   mode "write": inserts documents forever, printing each _id after the insert resolved;
//   mode "hold":  holds the file exclusively and prints "holding" until killed.
import { openEmbeddedStore } from '../../host/store/embedded/index.js';

const [file, mode] = process.argv.slice(2);
const store = openEmbeddedStore({ file: file!, exclusive: true });
if (mode === 'hold') {
  process.stdout.write('holding\n');
  setInterval(() => undefined, 1000);
} else {
  const c = store.collection('acks');
  for (let i = 0; ; i++) {
    const doc = await c.insertOne({ n: i, at: new Date() });
    process.stdout.write(`${doc._id}\n`);
  }
}
