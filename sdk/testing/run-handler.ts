import { createAjv, describeErrors } from '../../core/kernel/validator.js';
import { silentLogger, type Logger } from '../../core/kernel/logger.js';
import type { Clock } from '../../core/kernel/clock.js';
import type { DataPacket, HandlerContext, HandlerCredentials, HandlerDefinition } from '../../core/kernel/contributions.js';
import type { ContentStore } from '../../core/content/model.js';
import type { ActingUser } from '../../core/kernel/acting-user.js';
import { createGuardedFetch } from '../../host/net/guarded-fetch.js';
import { FakeClock } from './fake-clock.js';

export interface RunHandlerOptions {
  /** Packets a publish or update handler receives (default none). */
  packets?: DataPacket[];
  clock?: Clock;
  logger?: Logger;
  /** The content store a cms-like handler writes to; without it, using content throws. */
  content?: ContentStore;
  /** Loopback and private addresses are allowed by default (tests talk to fake servers). */
  allowPrivateUrls?: boolean;
  /** What `ctx.engineData` holds (initial data of the job). */
  engineData?: Record<string, unknown>;
  /** The handler's credentials, as a connected account would give them. */
  credentials?: HandlerCredentials | null;
  /** Who the run acts for (default: nobody, as a schedule or a webhook). */
  user?: ActingUser | null;
}

const noContent = new Proxy({} as ContentStore, {
  get(_target, name) {
    throw new Error(`runHandler: ctx.content.${String(name)} was used; pass options.content, or test on createTestHost`);
  },
});

/**
 * Runs one handler as a flow step would, without a host: its settings are validated (and
 * defaulted) against its schema first, exactly as when a flow saves them, then `fetch`,
 * `publish` or `update` runs with a context of a guarded fetch, a clock and a logger.
 *
 *   const packets = await runHandler(rssHandler, { feed_url: `${fake.url}/feed.xml` });
 */
export async function runHandler<S>(handler: HandlerDefinition<S>, settings: Record<string, unknown>, options: RunHandlerOptions = {}): Promise<DataPacket[]> {
  const values = structuredClone(settings);
  if (handler.settings) {
    const validate = createAjv().compile(handler.settings as object);
    if (!validate(values)) {
      const issues = describeErrors(validate.errors).map((i) => i.message);
      throw new Error(`runHandler '${handler.slug}': invalid settings: ${issues.join('; ')}`);
    }
  }
  const ctx: HandlerContext = {
    user: options.user ?? null,
    credentials: options.credentials ?? null,
    log: options.logger ?? silentLogger,
    clock: options.clock ?? new FakeClock(Date.now()),
    flowId: null,
    pipelineId: null,
    jobId: 0,
    flowStepId: `test_${handler.slug}`,
    fetch: createGuardedFetch({ allowPrivate: options.allowPrivateUrls ?? true, userAgent: 'Flowhost-test' }),
    content: options.content ?? noContent,
    engineData: Object.freeze({ ...(options.engineData ?? {}) }),
  };
  const typed = values as S;
  const packets = options.packets ?? [];
  switch (handler.type) {
    case 'fetch':
      return handler.fetch(ctx, typed);
    case 'publish':
      return handler.publish(ctx, typed, packets);
    case 'update':
      return handler.update(ctx, typed, packets);
  }
}
