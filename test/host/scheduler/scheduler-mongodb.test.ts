// The scheduler behaviour suite on MongoDB (MONGODB_URL; see test/support/mongo-env.ts),
// each test on a fresh database so runs never see each other's jobs.
// test-runner: waits (Agenda's real-time polls: about 6 s, 1.4 s of CPU)
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';
import { schedulerBehaviour } from './scheduler-behaviour.js';

const url = requireMongo('scheduler on mongodb');
if (url) {
  schedulerBehaviour('mongodb', {
    open: () => openMongoStore({ url: freshDatabaseUrl(url, 'flowhost_sched') }),
    openShared: async () => {
      const shared = freshDatabaseUrl(url, 'flowhost_sched');
      const [a, b] = await Promise.all([openMongoStore({ url: shared }), openMongoStore({ url: shared })]);
      return { a, b, childArgs: ['mongodb', shared] };
    },
  }).run();
}
