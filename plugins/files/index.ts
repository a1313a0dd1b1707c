/**
 * Uploaded files as a source of items: POST /files stores a file (its record in this
 * plugin's `files` collection, its bytes in its blob bucket); the `files` fetch handler
 * turns a file into packets (a CSV row, a JSON element, a whole markdown or text file).
 */
import { Type } from '../../sdk/index.js';
import {
  DEFAULT_UPLOAD_TYPES,
  defineHandler,
  definePlugin,
  defineRoute,
  defineSurface,
  errorBody,
  readUpload,
  reply,
  services,
  successBody,
  type Collection,
  type UploadTypes,
} from '../../sdk/index.js';
import { filesNoun } from './cli.js';
import { fileKind, filePackets } from './read-file.js';
import { fileSchema, fileView, recordOf, type FileRecord } from './records.js';
import { filesError } from './errors.js';

export interface FilesSettings {
  /** The largest file accepted, in bytes (default 10 MB). */
  max_file_bytes: number;
  /** The files accepted, by extension; the media library's default list unless set. */
  allowed_upload_types: UploadTypes;
}

export interface FilesHandlerSettings {
  /** One file by id; without it, every file uploaded since `since` (or all files). */
  file_id?: string;
  /** ISO date-time: only files uploaded at or after it (when no file_id is given). */
  since?: string;
  /** At most this many packets per run. */
  max_candidates: number;
}

const DEFAULT_MAX = 10 * 1024 * 1024;
const notFound = (id: string) => filesError('files_not_found', { message: `No file with id ${JSON.stringify(id)}` });
// 401, 403 and 429 (and the validators' 400s) are the dispatcher's, added to every route.
const auth = {
  400: errorBody(
    'rest_invalid_param',
    'rest_upload_no_data',
    'rest_upload_invalid',
    'rest_upload_no_content_disposition',
    'rest_upload_invalid_disposition',
    'rest_upload_sideload_error',
  ),
};
const idParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
// The host applies a query's defaults before the handler runs; the schema still marks the
// fields optional (a client may leave them out), so the handler falls back to the same values.
const PER_PAGE = 50;
const listQuery = Type.Object({
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PER_PAGE })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
});

type StoredFile = FileRecord & { _id: string } & Record<string, unknown>;

export default definePlugin({
  id: 'files',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Uploaded files (POST /files) and the `files` fetch handler: CSV rows, JSON elements, markdown and text files as items.',
  settingsSchema: {
    type: 'object',
    properties: {
      max_file_bytes: { type: 'integer', minimum: 1, maximum: 1024 * 1024 * 1024, default: DEFAULT_MAX },
      allowed_upload_types: {
        type: 'object',
        description: 'Accepted files: extensions separated by | → the MIME type stored (WordPress upload_mimes shape)',
        propertyNames: { pattern: '^[a-z0-9]{1,16}(\\|[a-z0-9]{1,16})*$' },
        additionalProperties: { type: 'string', pattern: '^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$' },
        maxProperties: 500,
        default: { ...DEFAULT_UPLOAD_TYPES },
      },
    },
  },
  deps: {
    routes: services.routes,
    handlers: services.handlers,
    store: services.store,
    blobs: services.blobs,
    settings: services.configOf<FilesSettings>(),
  },
  async setup({ routes, handlers, store, blobs, settings }) {
    const files = store.collection<StoredFile>('files') as Collection<StoredFile>;
    await files.createIndex({ fields: { created_at: -1 }, name: 'files_created' });
    const find = async (id: string) => (await files.findOne({ _id: id })) as StoredFile | null;

    routes.add(
      defineSurface({
        id: 'files',
        routes: [
          {
            method: 'POST',
            path: '/files',
            permission: { capability: 'manage_options' },
            streamBody: true,
            summary: 'Upload a file (multipart field `file`, or the raw body with Content-Disposition)',
            schema: {
              upload: { field: 'file' },
              responses: { ...auth, 201: successBody({ file: fileSchema }), 413: errorBody('rest_upload_too_large') },
            },
            async handle(request) {
              const upload = await readUpload(request, {
                bucket: blobs,
                maxBytes: settings.max_file_bytes ?? DEFAULT_MAX,
                field: 'file',
                allowedTypes: settings.allowed_upload_types ?? DEFAULT_UPLOAD_TYPES,
              });
              const record = recordOf(upload.blob);
              // The bytes first, the record last: a crash in between leaves unlisted bytes, never a record without its file.
              try {
                await files.insertOne({ _id: record.id, ...record });
              } catch (error) {
                await blobs.delete(upload.blob.id).catch(() => undefined);
                throw error;
              }
              return reply(201, { file: fileView(record) });
            },
          },
          defineRoute({
            method: 'GET',
            path: '/files',
            permission: { capability: 'manage_options' },
            summary: 'Stored files, newest first',
            schema: {
              query: listQuery,
              responses: { ...auth, 200: successBody({ files: { type: 'array', items: fileSchema }, total: { type: 'integer' } }) },
            },
            async handle(request) {
              const { per_page = PER_PAGE, page = 1 } = request.query;
              const [items, total] = await Promise.all([
                files.find(
                  {},
                  { sort: { created_at: -1, _id: 1 }, skip: Math.min((page - 1) * per_page, Number.MAX_SAFE_INTEGER), limit: per_page },
                ),
                files.count({}),
              ]);
              return { files: items.map((f) => fileView(f)), total };
            },
          }),
          defineRoute({
            method: 'GET',
            path: '/files/{id}',
            permission: { capability: 'manage_options' },
            schema: { params: idParams, responses: { ...auth, 200: successBody({ file: fileSchema }), 404: errorBody('files_not_found') } },
            async handle(request) {
              const id = request.params.id;
              const record = await find(id);
              if (!record) throw notFound(id);
              return { file: fileView(record) };
            },
          }),
          defineRoute({
            method: 'DELETE',
            path: '/files/{id}',
            permission: { capability: 'manage_options' },
            schema: {
              params: idParams,
              responses: { ...auth, 200: successBody({ deleted: { const: true }, file: fileSchema }), 404: errorBody('files_not_found') },
            },
            async handle(request) {
              const id = request.params.id;
              const record = await find(id);
              if (!record) throw notFound(id);
              // The record first: once it is gone the file is gone; then the bytes.
              await files.deleteOne({ _id: id });
              await blobs.delete(record.blob_id);
              return { deleted: true, file: fileView(record) };
            },
          }),
        ],
      }),
    );

    handlers.add(
      defineHandler<FilesHandlerSettings>({
        slug: 'files',
        type: 'fetch',
        label: 'Uploaded files',
        description:
          'Items from uploaded files: one per CSV row (the header row names the fields), one per element of a JSON array (or the object), one per markdown or text file.',
        settings: {
          type: 'object',
          properties: {
            file_id: {
              type: 'string',
              pattern: '^[A-Za-z0-9_-]{1,64}$',
              description: 'One file; leave empty for every file uploaded since `since`.',
            },
            since: { type: 'string', format: 'date-time', description: 'Files uploaded at or after this time (all files when empty).' },
            max_candidates: { type: 'integer', minimum: 1, maximum: 10_000, default: 500 },
            // The engine passes on at most this many new items per run: a whole CSV by default.
            max_items: {
              type: 'integer',
              minimum: 1,
              maximum: 10_000,
              default: 500,
              description: 'New items passed on per run (rows, elements or files not processed before).',
            },
          },
        },
        async fetch(_ctx, config) {
          const limit = config.max_candidates ?? 500;
          let records: StoredFile[];
          if (config.file_id) {
            const one = await find(config.file_id);
            if (!one) throw new Error(`No uploaded file with id ${config.file_id}`);
            records = [one];
          } else {
            const filter = config.since ? { created_at: { $gte: new Date(config.since) } } : {};
            records = (await files.find(filter, { sort: { created_at: 1, _id: 1 }, limit: 1000 })) as StoredFile[];
          }
          const packets = [];
          for (const record of records) {
            if (fileKind(record) === 'other') continue;
            packets.push(...(await filePackets(blobs, record, limit - packets.length)));
            if (packets.length >= limit) break;
          }
          return packets;
        },
      }),
    );
  },
  cli: [filesNoun],
});
