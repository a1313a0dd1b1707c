// Drives a browser authorization as the popup would: GET /flowhost-auth/{slug}/ with the
// administrator's credentials, following the redirects to the fake provider and back.
import type { TestHost } from '../../sdk/testing/index.js';

export async function authorizeInPopup(t: TestHost, slug: string): Promise<{ status: number; html: string }> {
  const auth = `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`;
  let url = `${t.url}/flowhost-auth/${slug}/`;
  for (let hop = 0; hop < 5; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: url.startsWith(t.url) ? { Authorization: auth } : {} });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    return { status: res.status, html: await res.text() };
  }
  throw new Error('too many redirects');
}
