/**
 * The hierarchical `project` taxonomy: categories at the top, projects (a term with a
 * repository address, or marked so when created), sections below (a repository's folders).
 * Term names are unique among siblings, slugs across the taxonomy.
 */
import { isApiError, type ContentStore, type Term, apiError } from '../../sdk/index.js';
import { META, TAXONOMY, type ProjectType } from './model.js';
import { slugOf } from './slug.js';
import { docsyncError } from './errors.js';

export interface ProjectTermView {
  id: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
  project_type: ProjectType;
  is_top_level: boolean;
  is_project: boolean;
}

export interface TreeNode extends ProjectTermView {
  children: TreeNode[];
  /** The term has children the depth left out (`children` is then empty): not a leaf. */
  children_truncated: boolean;
}

export interface ResolveResult {
  leaf: Term;
  terms: Term[];
  created: string[];
  project: Term | null;
}

/**
 * Called with a segment before its term is created: throws when the caller may not create
 * terms (docsync's one rule, access.ts requireTermCreation), so nothing of the path is made.
 */
export type CreationCheck = (segment: string) => void;

const PAGE = 100;

export class Projects {
  constructor(private readonly content: ContentStore) {}

  async get(id: number): Promise<Term | null> {
    return this.content.getTerm(TAXONOMY, id);
  }

  /** Every term of the taxonomy with its count, keyed by id (terms are few next to posts). */
  async all(): Promise<Map<number, Term & { count: number }>> {
    const out = new Map<number, Term & { count: number }>();
    for (let offset = 0; ; offset += PAGE) {
      const { items, total } = await this.content.findTerms(TAXONOMY, { orderby: 'name', per_page: PAGE, offset });
      for (const term of items) out.set(term.term_id, term);
      if (offset + PAGE >= total || items.length === 0) return out;
    }
  }

  /** The stored type, else one read from where the term sits. */
  typeOf(term: Term, terms: Map<number, Term>): ProjectType {
    const stored = term.meta[META.type];
    if (stored === 'category' || stored === 'project' || stored === 'section') return stored;
    if (typeof term.meta[META.repository] === 'string' && term.meta[META.repository]) return 'project';
    if (term.parent_id === null) return 'category';
    const parent = terms.get(term.parent_id);
    return parent && this.typeOf(parent, terms) === 'category' ? 'project' : 'section';
  }

  view(term: Term & { count?: number }, terms: Map<number, Term>): ProjectTermView {
    const type = this.typeOf(term, terms);
    return {
      id: term.term_id,
      name: term.name,
      slug: term.slug,
      description: term.description,
      parent: term.parent_id ?? 0,
      count: term.count ?? 0,
      project_type: type,
      is_top_level: term.parent_id === null,
      is_project: type === 'project',
    };
  }

  /** The term and its ancestors, leaf first (a dangling parent ends the walk). */
  ancestry(term: Term, terms: Map<number, Term>): Term[] {
    const chain: Term[] = [term];
    const seen = new Set([term.term_id]);
    let parentId = term.parent_id;
    while (parentId !== null && !seen.has(parentId)) {
      const parent = terms.get(parentId);
      if (!parent) break;
      chain.push(parent);
      seen.add(parentId);
      parentId = parent.parent_id;
    }
    return chain;
  }

  /** The term and every term below it. */
  descendants(rootId: number, terms: Map<number, Term>): number[] {
    const ids = [rootId];
    for (let i = 0; i < ids.length; i++) {
      for (const term of terms.values()) if (term.parent_id === ids[i] && !ids.includes(term.term_id)) ids.push(term.term_id);
    }
    return ids;
  }

  /**
   * Terms with a document on them or on any term below them. `count` is a term's own
   * documents (as WordPress reports it); emptiness is about the whole branch, since a
   * section whose pages all sit in its sub-sections is still where a reader finds them.
   */
  nonEmpty(terms: Map<number, Term & { count: number }>): Set<number> {
    const out = new Set<number>();
    for (const term of terms.values()) {
      if (term.count <= 0) continue;
      for (const t of this.ancestry(term, terms)) {
        if (out.has(t.term_id)) break;
        out.add(t.term_id);
      }
    }
    return out;
  }

  tree(parent: number, depth: number, terms: Map<number, Term & { count: number }>, hideEmpty: boolean): TreeNode[] {
    const shown = hideEmpty ? this.nonEmpty(terms) : null;
    const under = (parentId: number | null) =>
      [...terms.values()].filter((t) => t.parent_id === parentId && (!shown || shown.has(t.term_id)));
    const level = (parentId: number | null, left: number): TreeNode[] =>
      under(parentId)
        .sort((a, b) => a.name.localeCompare(b.name) || a.term_id - b.term_id)
        .map((t) => ({
          ...this.view(t, terms),
          children: left > 1 ? level(t.term_id, left - 1) : [],
          children_truncated: left <= 1 && under(t.term_id).length > 0,
        }));
    return level(parent === 0 ? null : parent, depth);
  }

  /** A child of `parentId` named (or slugged) `segment` (read without counts: this runs per synced file). */
  async child(parentId: number | null, segment: string): Promise<Term | null> {
    const wanted = segment.trim().toLowerCase();
    const slug = slugOf(segment);
    const items = await this.content.listTerms(TAXONOMY, { parent_id: parentId });
    return items.find((t) => t.name.toLowerCase() === wanted) ?? items.find((t) => t.slug === slug || t.slug === wanted) ?? null;
  }

  /**
   * A child term, created when missing. Its slug is the segment's, else prefixed with the
   * parent's (`guides` under two projects: `guides`, `other-project-guides`), as WordPress does.
   */
  async ensureChild(
    parent: Term | null,
    segment: string,
    type: ProjectType | null,
    mayCreate?: CreationCheck,
  ): Promise<{ term: Term; created: boolean }> {
    const found = await this.child(parent?.term_id ?? null, segment);
    if (found) return { term: found, created: false };
    mayCreate?.(segment);
    const base = slugOf(segment) || 'term';
    const candidates = [
      base,
      ...(parent ? [`${parent.slug}-${base}`] : []),
      ...Array.from({ length: 20 }, (_, i) => `${parent ? `${parent.slug}-` : ''}${base}-${i + 2}`),
    ];
    for (const slug of candidates) {
      if (await this.content.getTerm(TAXONOMY, slug)) continue;
      try {
        const term = await this.content.createTerm(TAXONOMY, {
          name: segment.trim(),
          slug,
          parent_id: parent?.term_id ?? null,
          meta: type ? { [META.type]: type } : {},
        });
        return { term, created: true };
      } catch (error) {
        // Another writer made the same child at the same moment: theirs is ours.
        if (!isApiError(error) || error.code !== 'term_exists') throw error;
        const raced = await this.child(parent?.term_id ?? null, segment);
        if (raced) return { term: raced, created: false };
      }
    }
    throw docsyncError('docsync_term_slug_taken', { message: `No free slug for the term '${segment}'` });
  }

  /**
   * The term with this slug (it keeps its place), else a new one under `parent`. A term
   * found without a stored type gets `type`, so a plain category becomes a project here.
   */
  async ensureNamed(parent: Term | null, slug: string, name: string, type: ProjectType): Promise<{ term: Term; created: boolean }> {
    const wanted = slugOf(slug) || slugOf(name);
    const found = wanted ? await this.content.getTerm(TAXONOMY, wanted) : null;
    if (found) {
      if (found.meta[META.type] !== undefined) return { term: found, created: false };
      return { term: await this.content.updateTerm(TAXONOMY, found.term_id, { meta: { [META.type]: type } }), created: false };
    }
    try {
      return {
        term: await this.content.createTerm(TAXONOMY, {
          name: name.trim(),
          ...(wanted ? { slug: wanted } : {}),
          parent_id: parent?.term_id ?? null,
          meta: { [META.type]: type },
        }),
        created: true,
      };
    } catch (error) {
      if (!isApiError(error) || error.code !== 'term_exists') throw error;
      // The name is taken among the siblings: that term is the one meant.
      const raced = await this.child(parent?.term_id ?? null, name);
      if (raced) return { term: raced, created: false };
      throw error;
    }
  }

  /**
   * Refuses `name` for the term when a sibling (same parent) already has it, ignoring case,
   * as WordPress's term_exists check does for a hierarchical taxonomy: the 400 names the
   * sibling's id. The term's own name in another case is allowed.
   */
  async assertNameFree(term: Term, name: string): Promise<void> {
    const wanted = name.trim().toLowerCase();
    const siblings = await this.content.listTerms(TAXONOMY, { parent_id: term.parent_id });
    const clash = siblings.find((t) => t.term_id !== term.term_id && t.name.trim().toLowerCase() === wanted);
    if (clash)
      throw apiError('term_exists', {
        message: `A term named '${clash.name}' already exists under the same parent`,
        data: { term_id: clash.term_id },
      });
  }

  /**
   * The type a new term gets under `parent`: at the top a category, or a project when the
   * path has one segment; under a category a project; under a project or a section a
   * section. Read from where the path lands, not from the segment's index, so a path that
   * starts at an existing project makes sections below it.
   */
  private typeUnder(parent: Term | null, pathLength: number, terms: Map<number, Term>): ProjectType {
    if (!parent) return pathLength === 1 ? 'project' : 'category';
    return this.typeOf(parent, terms) === 'category' ? 'project' : 'section';
  }

  /**
   * Resolves a path of names or slugs from the top level. With `create`, missing terms are
   * made with the type their place gives them (see typeUnder). `projectMeta` goes on the
   * project term of the path (created or found).
   */
  async resolve(
    path: string[],
    create: boolean,
    projectMeta: Record<string, unknown> = {},
    mayCreate?: CreationCheck,
  ): Promise<ResolveResult | null> {
    const terms: Term[] = [];
    const created: string[] = [];
    let parent: Term | null = null;
    // Types of untyped ancestors are read from their place, which needs the whole taxonomy.
    const known: Map<number, Term> = create ? await this.all() : new Map();
    for (const segment of path) {
      if (!create) {
        const found = await this.child(parent?.term_id ?? null, segment);
        if (!found) return null;
        parent = found;
      } else {
        const result = await this.ensureChild(parent, segment, this.typeUnder(parent, path.length, known), mayCreate);
        known.set(result.term.term_id, result.term);
        if (result.created) created.push(result.term.slug);
        parent = result.term;
      }
      terms.push(parent);
    }
    if (!parent) return null;
    const all = create ? known : new Map(terms.map((t) => [t.term_id, t]));
    let project = terms.find((t) => this.typeOf(t, all) === 'project') ?? null;
    if (create && project && Object.keys(projectMeta).length > 0) {
      project = await this.content.updateTerm(TAXONOMY, project.term_id, { meta: projectMeta });
      const at = terms.findIndex((t) => t.term_id === project!.term_id);
      terms[at] = project;
      if (at === terms.length - 1) parent = project;
    }
    return { leaf: parent, terms, created, project };
  }
}
