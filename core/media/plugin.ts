import { definePlugin } from '../kernel/define-plugin.js';
import { DEFAULT_UPLOAD_TYPES, type UploadTypes } from '../kernel/upload-allowed-types.js';
import { uploadTypesSchema } from '../kernel/upload-types-schema.js';
import { coreServices as services } from '../internal-services.js';
import { MediaLibrary } from './library.js';
import { mediaSurfaces } from './routes.js';

export interface MediaSettings {
  /** The largest upload accepted, in bytes. */
  max_upload_bytes: number;
  /** The files accepted, by extension (`"jpg|jpeg|jpe": "image/jpeg"`, as WordPress's upload_mimes). */
  allowed_upload_types: UploadTypes;
}

/** The media library: attachments (posts of type `attachment`) and their files. */
export const mediaPlugin = definePlugin({
  id: 'core-media',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The media library: wp/v2/media and the files behind it.',
  dependsOn: ['core-content'],
  settingsSchema: {
    type: 'object',
    properties: {
      max_upload_bytes: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024 * 1024, default: 64 * 1024 * 1024 },
      allowed_upload_types: uploadTypesSchema(DEFAULT_UPLOAD_TYPES),
    },
  },
  deps: {
    routes: services.routes,
    postTypes: services.postTypes,
    content: services.content,
    blobs: services.blobs,
    info: services.hostInfo,
    log: services.logger,
    settings: services.configOf<MediaSettings>(),
  },
  async setup({ routes, postTypes, content, blobs, info, log, settings }) {
    // wp/v2/media is served here, not by the generic post routes.
    postTypes.add({ name: 'attachment', label: 'Media', rest_base: 'media', public: true, hierarchical: false, rest_controller: 'custom' });
    const library = new MediaLibrary(content, blobs, log);
    await library.repair();
    const limits = { maxBytes: () => settings.max_upload_bytes, allowedTypes: () => settings.allowed_upload_types ?? DEFAULT_UPLOAD_TYPES };
    for (const surface of mediaSurfaces(library, info, limits)) routes.add(surface);
  },
});
