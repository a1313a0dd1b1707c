import { fitText, packetText, type DataPacket, type HandlerContext } from '../../sdk/index.js';

export const TEXT_LIMIT = 300;
/**
 * Publishes each packet to an AT Protocol server with the account's app password (via
 * `@atproto/api`): a session, then an `app.bsky.feed.post` record whose links are facets
 * at their UTF-8 byte offsets. A refused login marks the account not authenticated.
 */
export async function publishFederated(ctx: HandlerContext, service: string, packets: DataPacket[]): Promise<DataPacket[]> {
  const handle = ctx.credentials?.fields.handle;
  const password = ctx.credentials?.fields.password;
  if (!handle || !password) throw new Error('The federated account has no app password: save it with PUT /auth/federated');
  // Loaded on first publish: the client library is large and most hosts never post here.
  const { AtpAgent, RichText } = await import('@atproto/api');
  const agent = new AtpAgent({ service });
  try {
    await agent.login({ identifier: handle, password });
  } catch (error) {
    const reason = (error as Error).message;
    await ctx.credentials?.markFailed('invalid_credentials', `The federated server refused the app password: ${reason}`);
    throw new Error(`The federated server refused the app password: ${reason}`);
  }
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const { body, link } = packetText(packet);
    const { text, shortened } = fitText(body, link, TEXT_LIMIT);
    const rich = new RichText({ text });
    // Links only: mention resolution would ask the network about every @name.
    rich.detectFacetsWithoutResolution();
    const created = await agent.post({ text: rich.text, facets: rich.facets, createdAt: ctx.clock.now().toISOString() });
    const rkey = created.uri.split('/').pop() ?? '';
    out.push({
      ...packet,
      data: { ...packet.data, published_text: text },
      metadata: {
        ...packet.metadata,
        published_id: created.uri,
        published_cid: created.cid,
        published_url: `https://bsky.app/profile/${handle}/post/${rkey}`,
        shortened,
      },
    });
  }
  return out;
}
