/** A stored file: its record in the plugin's `files` collection; its bytes in the plugin's blob bucket. */
import { named, type BlobInfo, type JsonSchema } from '../../sdk/index.js';

export interface FileRecord {
  /** The blob id (URL-safe). */
  id: string;
  blob_id: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  created_at: Date;
}

export function recordOf(blob: BlobInfo): FileRecord {
  return {
    id: blob.id,
    blob_id: blob.id,
    filename: blob.filename,
    mime: blob.content_type,
    size: blob.size,
    sha256: blob.sha256,
    created_at: blob.created_at,
  };
}

export function fileView(record: FileRecord): Record<string, unknown> {
  return {
    id: record.id,
    filename: record.filename,
    mime: record.mime,
    size: record.size,
    sha256: record.sha256,
    created_at: new Date(record.created_at).toISOString(),
  };
}

export const fileSchema: JsonSchema = named('StoredFile', {
  type: 'object',
  required: ['id', 'filename', 'mime', 'size', 'sha256', 'created_at'],
  properties: {
    id: { type: 'string' },
    filename: { type: 'string' },
    mime: { type: 'string' },
    size: { type: 'integer' },
    sha256: { type: 'string' },
    created_at: { type: 'string' },
  },
  additionalProperties: false,
});
