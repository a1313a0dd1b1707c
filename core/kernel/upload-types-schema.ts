/** The settings schema of an upload allow-list (`allowed_upload_types`), with its default. */
import type { JsonSchema } from './json-schema.js';
import type { UploadTypes } from './upload-allowed-types.js';

export function uploadTypesSchema(defaults: UploadTypes): JsonSchema {
  return {
    type: 'object',
    description: 'Accepted files: extensions separated by | → the MIME type stored (WordPress upload_mimes shape)',
    propertyNames: { pattern: '^[a-z0-9]{1,16}(\\|[a-z0-9]{1,16})*$' },
    additionalProperties: { type: 'string', pattern: '^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$' },
    maxProperties: 500,
    default: { ...defaults },
  };
}
