/**
 * `readUpload`: a `streamBody` route's upload, streamed straight into a blob bucket (never
 * buffered whole). multipart/form-data: the first file in the named field (other files are
 * skipped, text fields returned); any other Content-Type: the raw body is the file, named
 * by `Content-Disposition: attachment; filename="x.jpg"` (how WordPress clients upload
 * media). Past `maxBytes`: 413 `rest_upload_too_large` and nothing stored; no file: 400
 * `rest_upload_no_data`. With `allowedTypes`, a file whose extension is not allowed is
 * refused before its bytes are read, and one whose bytes are not what its name and
 * declared type say after they are (400 `rest_upload_sideload_error`, nothing kept). The
 * host closes the connection after an answer that left part of the upload unread.
 */
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { BlobTooLargeError, type BlobBucket, type BlobInfo } from '../store/blob-port.js';
import type { RouteRequest } from './routes.js';
import { allowedTypeOf, type UploadTypeEntry, type UploadTypes } from './upload-allowed-types.js';
import { dispositionFilename, sanitizeFilename } from './upload-filename.js';
import { sniffUpload } from './upload-sniff.js';
import { uploadContentType } from './upload-type.js';
import { apiError } from '../errors/catalogue.js';

export { uploadContentType } from './upload-type.js';
export { dispositionFilename, sanitizeFilename } from './upload-filename.js';
export { DEFAULT_UPLOAD_TYPES, type UploadTypes } from './upload-allowed-types.js';

export interface ReadUploadOptions {
  /** Where the bytes go (`services.blobs`). */
  bucket: BlobBucket;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The multipart field holding the file (default 'file'). */
  field?: string;
  /**
   * The files accepted, by extension (`upload-allowed-types.ts`; DEFAULT_UPLOAD_TYPES is
   * WordPress's list less what a browser could run). Omitted: any file, typed by its
   * declared type or extension.
   */
  allowedTypes?: UploadTypes;
}

export interface Upload {
  /** The stored blob (its `filename` and `content_type` are the sanitized ones below). */
  blob: BlobInfo;
  filename: string;
  contentType: string;
  /** The text fields of a multipart form (empty for a raw upload). */
  fields: Record<string, string>;
}

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;

export function tooLarge(maxBytes: number): ApiError {
  return apiError('rest_upload_too_large', {
    message: `The file is larger than the upload limit of ${maxBytes} bytes`,
    data: { max_bytes: maxBytes },
  });
}

/** WordPress's words for a file type it will not take (it answers them with a 500; here the client is told 400). */
const notAllowed = () => apiError('rest_upload_sideload_error');

/** The allow-list's entry for the name, or the refusal (null: no list, any file). */
function allowedEntry(filename: string, options: ReadUploadOptions): UploadTypeEntry | null {
  if (!options.allowedTypes) return null;
  const entry = allowedTypeOf(filename, options.allowedTypes);
  if (!entry) throw notAllowed();
  return entry;
}

/** The stored bytes against the entry; a refused upload's blob is deleted before the answer. */
async function verified(upload: Upload, declared: string, entry: UploadTypeEntry | null, bucket: BlobBucket): Promise<Upload> {
  if (!entry) return upload;
  const verdict = await sniffUpload(bucket, upload.blob, entry, declared).catch(() => ({ ok: false }) as const);
  if (verdict.ok) return upload;
  await bucket.delete(upload.blob.id).catch(() => undefined);
  throw notAllowed();
}

/** `type/subtype` in lower case without parameters ('' when none). */
const mediaType = (header: string | undefined) =>
  String(header ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

const noData = () => apiError('rest_upload_no_data');

const interrupted = () => apiError('rest_upload_invalid', { message: 'The upload was interrupted before its end' });

function translate(error: unknown, maxBytes: number, source?: Readable): unknown {
  if (error instanceof BlobTooLargeError) return tooLarge(maxBytes);
  // The host's own answer for the body (408 when it arrived too slowly) stands as it is.
  if (error instanceof ApiError) return error;
  // The client went away mid-upload: nobody hears the answer, but it is no server error.
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (
    source?.readableAborted ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (error as Error | undefined)?.message === 'aborted'
  )
    return interrupted();
  return error;
}

export async function readUpload(request: RouteRequest<unknown, unknown, unknown>, options: ReadUploadOptions): Promise<Upload> {
  const source = request.stream;
  if (!source) throw noData();
  const { bucket, maxBytes } = options;
  const contentType = request.headers['content-type'] ?? '';
  const declaredLength = Number(request.headers['content-length']);
  if (/^multipart\/form-data/i.test(contentType.trim())) {
    const got = await readMultipart(source, contentType, options);
    return verified(got.upload, got.declared, got.entry, bucket);
  }

  // A raw body: the Content-Length says early what the meter would find late.
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) throw tooLarge(maxBytes);
  if (declaredLength === 0) throw noData();
  // As WordPress: a raw upload names itself, or it is refused before a byte is read.
  const disposition = request.headers['content-disposition'];
  if (!disposition)
    throw apiError('rest_upload_no_content_disposition', {
      message:
        'No Content-Disposition supplied: send `Content-Disposition: attachment; filename="..."` with a raw upload, or use multipart/form-data',
    });
  const given = dispositionFilename(disposition);
  if (!given) {
    throw apiError('rest_upload_invalid_disposition', {
      message:
        'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
    });
  }
  const filename = sanitizeFilename(given);
  const entry = allowedEntry(filename, options);
  const type = entry?.mime ?? uploadContentType(contentType, filename);
  let blob: BlobInfo;
  try {
    blob = await bucket.put(source, { filename, contentType: type, maxBytes });
  } catch (error) {
    throw translate(error, maxBytes, source);
  }
  if (blob.size === 0) {
    await bucket.delete(blob.id);
    throw noData();
  }
  return verified({ blob, filename, contentType: type, fields: {} }, mediaType(contentType), entry, bucket);
}

interface MultipartFile {
  upload: Upload;
  /** The part's own Content-Type. */
  declared: string;
  entry: UploadTypeEntry | null;
}

function readMultipart(source: Readable, contentType: string, options: ReadUploadOptions): Promise<MultipartFile> {
  const { bucket, maxBytes } = options;
  const field = options.field ?? 'file';
  return new Promise<MultipartFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: 'utf8',
        limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 20, files: 20 },
      });
    } catch (error) {
      reject(apiError('rest_upload_invalid', { message: `The multipart body cannot be read: ${(error as Error).message}` }));
      return;
    }
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let put: Promise<MultipartFile> | null = null;
    let settled = false;
    let current: Readable | null = null;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      current?.destroy();
      // A blob written before the form turned out bad is removed before the answer.
      const cleanup = put
        ? put
            .then(
              (got) => bucket.delete(got.upload.blob.id),
              () => undefined,
            )
            .catch(() => undefined)
        : Promise.resolve();
      void cleanup.then(() => reject(error));
    };

    parser.on('file', (name, file, info) => {
      // A form cut short fails its open file stream: never an unhandled 'error'.
      file.on('error', () => undefined);
      if (name !== field || put || settled) {
        file.resume();
        return;
      }
      current = file;
      const filename = sanitizeFilename(info.filename);
      let entry: UploadTypeEntry | null;
      try {
        entry = allowedEntry(filename, options);
      } catch (error) {
        file.resume();
        fail(error);
        return;
      }
      const type = entry?.mime ?? uploadContentType(info.mimeType, filename);
      put = bucket.put(file, { filename, contentType: type, maxBytes }).then(
        (blob) => ({ upload: { blob, filename, contentType: type, fields }, declared: mediaType(info.mimeType), entry }),
        (error: unknown) => {
          fail(translate(error, maxBytes, source));
          throw error;
        },
      );
      put.catch(() => undefined);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(apiError('rest_upload_invalid', { message: `The form field '${name}' is longer than ${MAX_FIELD_BYTES} bytes` }));
      if (name !== '__proto__') fields[name] = value;
    });
    parser.on('fieldsLimit', () => fail(apiError('rest_upload_invalid', { message: `The form has more than ${MAX_FIELDS} fields` })));
    parser.on('partsLimit', () => fail(apiError('rest_upload_invalid', { message: 'The form has too many parts' })));
    parser.on('error', (error: Error) =>
      fail(apiError('rest_upload_invalid', { message: `The multipart body cannot be read: ${error.message}` })),
    );
    parser.on('close', () => {
      if (settled) return;
      if (!put) return fail(noData());
      put.then(
        async (got) => {
          if (settled) return;
          if (got.upload.blob.size === 0) {
            settled = true;
            await bucket.delete(got.upload.blob.id).catch(() => undefined);
            reject(noData());
            return;
          }
          settled = true;
          resolve(got);
        },
        () => undefined,
      );
    });
    source.on('error', (error) => fail(error));
    source.on('aborted', () => fail(interrupted()));
    source.pipe(parser);
  });
}
