/**
 * The content model is part of the public contract (sdk/contract/content.ts): the kernel's
 * handler context and every plugin name these types, so they live there; the domain reads
 * them from here.
 */
export type {
  PostStatus,
  Post,
  NewPost,
  PostPatch,
  Term,
  PostQuery,
  NewTerm,
  TermPatch,
  TermQuery,
  ContentStore,
} from '../contract/content.js';
