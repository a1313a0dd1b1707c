/**
 * `readUpload`: a `streamBody` route's upload, streamed straight into a blob bucket (never
 * buffered whole). multipart/form-data: the first file in the named field (other files are
 * skipped, text fields returned); any other Content-Type: the raw body is the file, named
 * by `Content-Disposition: attachment; filename="x.jpg"` (how WordPress clients upload
 * media). Past `maxBytes`: 413 `rest_upload_too_large` and nothing stored; no file: 400
 * `rest_upload_no_data`. The host closes the connection after an answer that left part of
 * the upload unread.
 */
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { BlobTooLargeError, type BlobBucket, type BlobInfo } from '../store/blob-port.js';
import type { RouteRequest } from './routes.js';
import { uploadContentType } from './upload-type.js';

export { uploadContentType } from './upload-type.js';

export interface ReadUploadOptions {
  /** Where the bytes go (`services.blobs`). */
  bucket: BlobBucket;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The multipart field holding the file (default 'file'). */
  field?: string;
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
  return new ApiError('rest_upload_too_large', `The file is larger than the upload limit of ${maxBytes} bytes`, 413, { max_bytes: maxBytes });
}

const noData = () => new ApiError('rest_upload_no_data', 'No data supplied: send the file as multipart/form-data or as the raw request body', 400);

/**
 * A file name safe to store, show and put in a URL path segment or a header: the last
 * path segment, without control characters, quotes or characters Windows refuses,
 * leading dots or spaces; at most 200 characters; 'file' when nothing remains.
 */
export function sanitizeFilename(name: string | undefined | null): string {
  let out = String(name ?? '')
    .split(/[/\\]/)
    .pop()!
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*%#;`$&{}\[\]^~]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s-]+/, '');
  if (out.length > 200) {
    const dot = out.lastIndexOf('.');
    const ext = dot > 0 && out.length - dot <= 16 ? out.slice(dot) : '';
    out = out.slice(0, 200 - ext.length) + ext;
  }
  return out.replace(/[.\s]+$/, '') || 'file';
}

/** The filename of a Content-Disposition header (`filename*=UTF-8''...` preferred). */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const value = extended[1]!.trim().replace(/^"(.*)"$/, '$1');
    const match = /^[^']*'[^']*'(.*)$/.exec(value);
    try {
      return decodeURIComponent(match ? match[1]! : value);
    } catch {
      /* fall through to the plain parameter */
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(header);
  if (!plain) return null;
  return plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
}

const interrupted = () => new ApiError('rest_upload_invalid', 'The upload was interrupted before its end', 400);

function translate(error: unknown, maxBytes: number, source?: Readable): unknown {
  if (error instanceof BlobTooLargeError) return tooLarge(maxBytes);
  // The host's own answer for the body (408 when it arrived too slowly) stands as it is.
  if (error instanceof ApiError) return error;
  // The client went away mid-upload: nobody hears the answer, but it is no server error.
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (source?.readableAborted || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | undefined)?.message === 'aborted') return interrupted();
  return error;
}

export async function readUpload(request: RouteRequest<unknown, unknown, unknown>, options: ReadUploadOptions): Promise<Upload> {
  const source = request.stream;
  if (!source) throw noData();
  const { bucket, maxBytes } = options;
  const contentType = request.headers['content-type'] ?? '';
  const declaredLength = Number(request.headers['content-length']);
  if (/^multipart\/form-data/i.test(contentType.trim())) return readMultipart(source, contentType, options);

  // A raw body: the Content-Length says early what the meter would find late.
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes) throw tooLarge(maxBytes);
  if (declaredLength === 0) throw noData();
  // As WordPress: a raw upload names itself, or it is refused before a byte is read.
  const given = dispositionFilename(request.headers['content-disposition']);
  if (!given) throw new ApiError('rest_upload_no_content_disposition', 'No Content-Disposition supplied: send `Content-Disposition: attachment; filename="..."` with a raw upload, or use multipart/form-data', 400);
  const filename = sanitizeFilename(given);
  const type = uploadContentType(contentType, filename);
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
  return { blob, filename, contentType: type, fields: {} };
}

function readMultipart(source: Readable, contentType: string, options: ReadUploadOptions): Promise<Upload> {
  const { bucket, maxBytes } = options;
  const field = options.field ?? 'file';
  return new Promise<Upload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 20, files: 20 } });
    } catch (error) {
      reject(new ApiError('rest_upload_invalid', `The multipart body cannot be read: ${(error as Error).message}`, 400));
      return;
    }
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let put: Promise<Upload> | null = null;
    let settled = false;
    let current: Readable | null = null;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      current?.destroy();
      // A blob written before the form turned out bad is removed before the answer.
      const cleanup = put ? put.then((upload) => bucket.delete(upload.blob.id), () => undefined).catch(() => undefined) : Promise.resolve();
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
      const type = uploadContentType(info.mimeType, filename);
      put = bucket.put(file, { filename, contentType: type, maxBytes }).then(
        (blob) => ({ blob, filename, contentType: type, fields }),
        (error: unknown) => {
          fail(translate(error, maxBytes, source));
          throw error;
        },
      );
      put.catch(() => undefined);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new ApiError('rest_upload_invalid', `The form field '${name}' is longer than ${MAX_FIELD_BYTES} bytes`, 400));
      if (name !== '__proto__') fields[name] = value;
    });
    parser.on('fieldsLimit', () => fail(new ApiError('rest_upload_invalid', `The form has more than ${MAX_FIELDS} fields`, 400)));
    parser.on('partsLimit', () => fail(new ApiError('rest_upload_invalid', 'The form has too many parts', 400)));
    parser.on('error', (error: Error) => fail(new ApiError('rest_upload_invalid', `The multipart body cannot be read: ${error.message}`, 400)));
    parser.on('close', () => {
      if (settled) return;
      if (!put) return fail(noData());
      put.then(
        async (upload) => {
          if (settled) return;
          if (upload.blob.size === 0) {
            settled = true;
            await bucket.delete(upload.blob.id).catch(() => undefined);
            reject(noData());
            return;
          }
          settled = true;
          resolve(upload);
        },
        () => undefined,
      );
    });
    source.on('error', (error) => fail(error));
    source.on('aborted', () => fail(interrupted()));
    source.pipe(parser);
  });
}
