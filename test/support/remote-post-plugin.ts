// A plugin for process tests (loaded by a `flowhost serve` child through FLOWHOST_PLUGINS):
// its `remote-post` publish handler POSTs each item, as JSON, to the endpoint its settings
// name (a fake remote on 127.0.0.1, see review-remote.ts) and records the id the remote
// answers as the item's published_id. Nothing of it lives in the host's process but the
// request: what was published is what the remote received and answered.
import { defineHandler, type DataPacket } from '../../sdk/index.js';
import { handlerPlugin } from './handler-plugin.js';

export default handlerPlugin('remote-post', [
  defineHandler<{ endpoint?: string }>({
    slug: 'remote-post',
    type: 'publish',
    label: 'Remote post',
    description: 'POSTs each item to a remote endpoint.',
    settings: { type: 'object', required: ['endpoint'], properties: { endpoint: { type: 'string', format: 'uri' } } },
    async publish(ctx, settings, packets) {
      const out: DataPacket[] = [];
      for (const packet of packets) {
        const res = await ctx.fetch(String(settings.endpoint), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ job_id: ctx.jobId, guid: packet.metadata.item_id, title: packet.data.title }),
          timeoutMs: 60_000,
        });
        if (!res.ok) throw new Error(`remote-post: the remote answered ${res.status}`);
        const { id } = res.json<{ id: string }>();
        out.push({ ...packet, metadata: { ...packet.metadata, published_id: id, published_url: null } });
      }
      return out;
    },
  }),
]);
