// How many stored things a plugin's blob bucket holds on a test host: files in
// `<data dir>/blobs/<bucket>` (embedded), or GridFS files + chunks documents (MongoDB).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestHost } from '../../sdk/testing/index.js';
import { MongoStore } from '../../host/store/mongodb/index.js';

export async function blobCount(t: TestHost, bucket: string): Promise<number> {
  const store = t.host.store;
  if (store instanceof MongoStore) {
    const db = store.driverDb;
    return (await db.collection(`${bucket}.files`).countDocuments()) + (await db.collection(`${bucket}.chunks`).countDocuments());
  }
  try {
    return readdirSync(join(t.host.config.dataDir, 'blobs', bucket)).length;
  } catch {
    return 0;
  }
}
