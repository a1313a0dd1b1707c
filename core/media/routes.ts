/**
 * wp/v2/media (WordPress's media endpoints) and the bytes at `/flowhost-media/{id}/{filename}`.
 * An attachment is as visible as the post it is attached to (attachment-access.ts).
 * One file per route under routes/, sharing what they need through a MediaContext.
 */
import type { HostInfo } from '../kernel/plugin.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { MediaLibrary } from './library.js';
import { bytesRoute } from './routes/bytes.js';
import { mediaContext, type UploadLimits } from './routes/context.js';
import { updateRoute } from './routes/edit.js';
import { listRoute } from './routes/list.js';
import { getOneRoute } from './routes/read.js';
import { removeRoute } from './routes/remove.js';
import { uploadRoute } from './routes/upload.js';

export type { UploadLimits } from './routes/context.js';

export function mediaSurfaces(library: MediaLibrary, info: HostInfo, limits: UploadLimits): SurfaceDefinition[] {
  const ctx = mediaContext(library, info, limits);
  return [
    {
      id: 'core-media',
      namespace: 'wp/v2',
      rest: 'wordpress',
      routes: [uploadRoute(ctx), listRoute(ctx), getOneRoute(ctx), updateRoute(ctx), removeRoute(ctx)],
    },
    { id: 'core-media-files', mount: 'site-root', routes: [bytesRoute(ctx)] },
  ];
}
