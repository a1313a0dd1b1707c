import { createAjv } from '../kernel/validator.js';
import { assertValid } from './assert-valid.js';
import { silentLogger, type Logger } from '../kernel/logger.js';
import type { Clock } from '../kernel/clock.js';
import type { DataPacket, HandlerContext, HandlerCredentials, HandlerDefinition } from '../kernel/contributions.js';
import type { ContentStore } from '../content/model.js';
import type { ActingUser } from '../kernel/acting-user.js';
import { createGuardedFetch } from '../../host/net/guarded-fetch.js';
import { fetchCap } from '../../core/engine/fetch-cap.js';
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
  /**
   * Fetch handlers: pass on only what a flow step would, the first `max_items` items (the
   * validated settings' `max_items`, else 1; a flow also skips items it processed before).
   * Without it every returned item comes back, and a warning (FLOWHOST_MAX_ITEMS) says when
   * a handler whose settings have no `max_items` returned more than a flow would pass on.
   */
  cap?: boolean;
}

/** Handlers already warned about: a loop of runs warns once. */
const warned = new Set<string>();

function applyFetchCap(slug: string, packets: DataPacket[], settings: Record<string, unknown>, cap: boolean): DataPacket[] {
  const max = fetchCap(settings);
  if (packets.length <= max) return packets;
  if (cap) return packets.slice(0, max);
  // A handler whose schema declares max_items chose its cap; one that does not is capped
  // at 1 in a flow without its author knowing: that is the surprise worth a warning.
  if (settings.max_items === undefined && !warned.has(slug)) {
    warned.add(slug);
    process.emitWarning(
      `runHandler '${slug}': returned ${packets.length} items, but a flow step passes on ${max} per run: its settings have no max_items (declare max_items in the handler's settings schema to pass on more; { cap: true } returns what a flow would)`,
      { code: 'FLOWHOST_MAX_ITEMS' },
    );
  }
  return packets;
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
 * A fetch step in a flow passes on `max_items` items per run (default 1): see `cap`.
 *
 *   const packets = await runHandler(rssHandler, { feed_url: `${fake.url}/feed.xml` });
 */
export async function runHandler<S>(
  handler: HandlerDefinition<S>,
  settings: Record<string, unknown>,
  options: RunHandlerOptions = {},
): Promise<DataPacket[]> {
  const values = structuredClone(settings);
  if (handler.settings)
    assertValid(createAjv().compile(handler.settings as object), values, `runHandler '${handler.slug}': invalid settings`);
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
      return applyFetchCap(handler.slug, await handler.fetch(ctx, typed), values, options.cap ?? false);
    case 'publish':
      return handler.publish(ctx, typed, packets);
    case 'update':
      return handler.update(ctx, typed, packets);
  }
}
