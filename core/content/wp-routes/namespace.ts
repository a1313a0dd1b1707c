/** The WordPress-compatible surface's namespace: `{prefix}/wp/v2`. */
export const WP_NAMESPACE = 'wp/v2';
