/**
 * Flows stored before URL credentials were refused may hold `https://user:password@…` in
 * a handler setting, in clear. At start-up their userinfo is sealed like any handler secret
 * (answers mask it, exports leave it out); a later save of that step is refused until the
 * address is given without them (handler-secrets.ts refuseUrlCredentials). Flows stored
 * before secret query parameters were sealed (`feed.xml?token=…`) get the same seal of
 * those values, and keep working as they are.
 */
import type { Collection } from '../store/port.js';
import type { HandlerSecrets } from './handler-secrets.js';
import type { FlowRecord } from './model.js';

export async function sealStoredUrlCredentials(flows: Collection<FlowRecord>, secrets: HandlerSecrets): Promise<number> {
  let sealed = 0;
  // Steps only, once per start: the seal leaves a record without such a URL as it is.
  for (const flow of await flows.find({}, { projection: { flow_id: 1, steps: 1 } })) {
    const $set: Record<string, unknown> = {};
    for (const [key, step] of Object.entries(flow.steps ?? {})) {
      const config = step?.handler_config ?? {};
      const next = secrets.seal(config);
      if (JSON.stringify(next) !== JSON.stringify(config)) $set[`steps.${key}.handler_config`] = next;
    }
    if (Object.keys($set).length === 0) continue;
    await flows.updateOne({ flow_id: flow.flow_id }, { $set });
    sealed++;
  }
  return sealed;
}
