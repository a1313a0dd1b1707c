/**
 * Where a cms post can go so that users find it: the post types wp/v2 serves through its
 * post routes (not media, whose own plugin serves it) and the taxonomies each carries, as
 * registered when the host booted. The settings schemas list them as choices, and a
 * publish checks its settings against them again at run time: a flow saved before its
 * type's plugin was removed must fail, not write posts nobody can see.
 */
import { apiError, type ContentTypes } from '../../sdk/index.js';

export interface PostTarget {
  name: string;
  /** Taxonomy names whose terms wp/v2 shows on a post of this type. */
  taxonomies: string[];
}

export function postTargets(types: ContentTypes): PostTarget[] {
  const taxonomies = types.taxonomies();
  return types
    .postTypes()
    .filter((type) => type.rest_controller !== 'custom')
    .map((type) => ({
      name: type.name,
      taxonomies: taxonomies.filter((t) => t.post_types.includes(type.name) || (type.taxonomies ?? []).includes(t.name)).map((t) => t.name),
    }));
}

/** Comma-separated names, trimmed, each once. */
export function termNames(list: string): string[] {
  return [
    ...new Set(
      list
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Refuses a publish whose post type is not (or no longer) registered, or whose terms are
 * of a taxonomy the type does not carry (wp/v2 would never show them), naming the value
 * and the choices.
 */
export function requirePublishTarget(targets: PostTarget[], settings: { post_type: string; taxonomy: string; terms: string }): void {
  const type = targets.find((t) => t.name === settings.post_type);
  if (!type) {
    throw apiError('rest_type_invalid', {
      message: `post type '${settings.post_type}' is not registered on this site (registered: ${targets.map((t) => t.name).join(', ')}); choose one in the step's settings`,
    });
  }
  if (termNames(settings.terms).length > 0 && !type.taxonomies.includes(settings.taxonomy)) {
    throw apiError('rest_taxonomy_invalid', {
      message: `taxonomy '${settings.taxonomy}' is not one of post type '${type.name}''s taxonomies (${type.taxonomies.join(', ') || 'none'}); its terms would be shown nowhere`,
    });
  }
}
