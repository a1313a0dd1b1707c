import { useState } from 'preact/hooks';
import { callWithHeaders } from './api.js';
import { ErrorNote, Loading, Page, Status, useLoad } from './components.js';
import { when } from './format.js';

interface WpPost {
  id: number;
  date: string;
  status: string;
  link: string;
  title: { rendered: string; raw?: string };
}

/** Posts through the WordPress-compatible API, as any WordPress client reads them (edit context: drafts too). */
export function Posts() {
  const [page, setPage] = useState(1);
  const list = useLoad(async () => {
    const res = await callWithHeaders<WpPost[]>('GET', '/wp/v2/posts', { query: { context: 'edit', status: 'any', per_page: 20, page } });
    return {
      posts: res.body,
      pages: Number(res.headers.get('X-WP-TotalPages') ?? 1),
      total: Number(res.headers.get('X-WP-Total') ?? res.body.length),
    };
  }, [page]);
  return (
    <Page title="Posts">
      <ErrorNote error={list.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : list.data.posts.length === 0 ? (
        <p class="empty">No posts yet. A flow with a “Site post” publish step makes them.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {list.data.posts.map((post) => (
              <tr key={post.id}>
                <td>
                  {/* The title as text: rendered titles are HTML the API sanitized, but the console shows no HTML it did not write. */}
                  <a href={post.link} target="_blank" rel="noopener">
                    {post.title.raw ?? new DOMParser().parseFromString(post.title.rendered, 'text/html').body.textContent}
                  </a>
                </td>
                <td>
                  <Status value={post.status} />
                </td>
                <td>{when(post.date)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && list.data.pages > 1 ? (
        <nav class="pager" aria-label="Pages of posts">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </button>
          <span class="muted">
            Page {page} of {list.data.pages} ({list.data.total} posts)
          </span>
          <button type="button" disabled={page >= list.data.pages} onClick={() => setPage(page + 1)}>
            Older
          </button>
        </nav>
      ) : null}
    </Page>
  );
}
