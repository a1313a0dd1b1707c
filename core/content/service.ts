// PLACEHOLDER until the content domain lands (being written in parallel): every method
// refuses clearly so nothing silently pretends to store posts.
import type { Clock } from '../kernel/clock.js';
import type { DocumentStore } from '../store/port.js';
import type { ContentStore } from './model.js';

const missing = async (): Promise<never> => {
  throw new Error('The content store is not available in this build yet');
};

export class ContentService implements ContentStore {
  constructor(
    readonly store: DocumentStore,
    readonly clock: Clock,
  ) {}
  async init(): Promise<void> {}
  createPost = missing;
  updatePost = missing;
  getPost = missing;
  getPostBySlug = missing;
  findPosts = missing;
  deletePost = missing;
  ensureTerm = missing;
  getTerm = missing;
  listTerms = missing;
}
