/** What the administrators' plugin routes share (settings, installed plugins): who may call them, and the plugin id in the path. */
export const admin = { capability: 'manage_options' } as const;

/** `{id}`: a plugin id, as long as an npm package name may be. */
export const params = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 214 } } } as const;
