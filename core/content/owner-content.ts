/**
 * The content store a run's handlers write through (`ctx.content`): what they store is
 * filtered as wp/v2 filters a post its writer sends (postTextFor), the writer being the
 * flow's owner. HTML from a feed or an AI step is then kept exactly as far as that user's
 * own post would be: an owner with unfiltered_html (administrators, single-site editors)
 * keeps it, anyone else's run gets kses. Reads pass through unchanged.
 */
import type { ContentStore, NewPost, PostPatch } from './model.js';
import { ksesTitle, postTextFor } from './kses.js';

export function contentWrittenAs(content: ContentStore, trusted: boolean): ContentStore {
  if (trusted) return content;
  // A term description gets kses for the same writers (pre_term_description).
  const description = <T extends { description?: string }>(input: T): T =>
    typeof input.description === 'string' ? { ...input, description: ksesTitle(input.description) } : input;
  return {
    createPost: (input: NewPost) => content.createPost(postTextFor(input, false)),
    updatePost: (postId: number, patch: PostPatch) => content.updatePost(postId, postTextFor(patch, false)),
    getPost: (postId) => content.getPost(postId),
    getPostBySlug: (postType, slug) => content.getPostBySlug(postType, slug),
    findPosts: (query) => content.findPosts(query),
    deletePost: (postId) => content.deletePost(postId),
    ensureTerm: (taxonomy, name, options) => content.ensureTerm(taxonomy, name, options && description(options)),
    getTerm: (taxonomy, idOrSlug) => content.getTerm(taxonomy, idOrSlug),
    listTerms: (taxonomy, options) => content.listTerms(taxonomy, options),
    createTerm: (taxonomy, input) => content.createTerm(taxonomy, description(input)),
    updateTerm: (taxonomy, termId, patch) => content.updateTerm(taxonomy, termId, description(patch)),
    deleteTerm: (taxonomy, termId) => content.deleteTerm(taxonomy, termId),
    findTerms: (taxonomy, query) => content.findTerms(taxonomy, query),
  };
}
