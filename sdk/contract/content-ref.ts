/**
 * The content reference, apart from content.ts: that file is pure types so the kernel's
 * handler context can name them without loading anything.
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { ContentStore } from './content.js';

/** `deps: { content: services.content }`: provided by core-content. */
export const contentService = createServiceRef<ContentStore, 'root'>({ id: 'content', scope: 'root' });
