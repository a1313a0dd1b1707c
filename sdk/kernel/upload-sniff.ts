/**
 * Whether a stored upload's bytes are what its name and declared type say. Binary types
 * must be recognised by their magic number (the `file-type` library) as the extension's
 * type; text types, which have none, must be recognised as nothing, be valid UTF-8
 * without NUL bytes, and not open like a web page (the WHATWG MIME Sniffing standard's
 * HTML signatures, plus XML and SVG). The declared type, when it names one, must agree.
 */
import type { Readable } from 'node:stream';
import type { BlobBucket, BlobInfo } from '../store/blob-port.js';
import { isTextType, type UploadTypeEntry } from './upload-allowed-types.js';

/** Enough for every signature file-type reads, Office and OpenDocument zips included. */
const HEAD_BYTES = 64 * 1024;

/** Types a client sends when it does not know (busboy reports a part without one as text/plain). */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'text/plain']);

/** Other names clients use for the allowed types. */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'image/vnd.microsoft.icon': 'image/x-icon',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-m4a': 'audio/mpeg',
  'audio/mp4': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-flac': 'audio/flac',
  'video/x-msvideo': 'video/avi',
  'application/x-zip-compressed': 'application/zip',
  'application/x-pdf': 'application/pdf',
  'application/gzip': 'application/x-gzip',
  'text/x-markdown': 'text/markdown',
  'text/x-csv': 'text/csv',
  'application/csv': 'text/csv',
  'text/comma-separated-values': 'text/csv',
};

/** What the magic numbers of some allowed types are read as. */
const CONTAINERS: Readonly<Record<string, readonly string[]>> = {
  // Legacy Office files are OLE compound files.
  cfb: ['doc', 'pot', 'pps', 'ppt', 'xla', 'xls', 'xlt', 'xlw'],
  // Office Open XML, OpenDocument and iWork files are zips file-type may not look into.
  zip: ['docx', 'xlsx', 'pptx', 'odt', 'odp', 'ods', 'odg', 'key', 'numbers', 'pages'],
};

// Lower case. A signature is a page when whitespace or `>` follows it; a prefix whatever follows.
const PAGE_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<svg',
  '<math',
];
const PAGE_PREFIXES = ['<!--', '<?xml'];

export type SniffVerdict = { ok: true } | { ok: false; reason: string };

/** The first `limit` bytes of a stream (fewer when it is shorter); the stream is closed after. */
export async function readHead(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

function looksLikePage(text: string): boolean {
  const start = text
    .replace(/^[\uFEFF\s]+/, '')
    .slice(0, 32)
    .toLowerCase();
  if (PAGE_PREFIXES.some((p) => start.startsWith(p))) return true;
  return PAGE_SIGNATURES.some((p) => start.startsWith(p) && /^[\s>]/.test(start.slice(p.length)));
}

/** The whole blob is UTF-8 without NUL, and does not open like a page. */
async function checkText(stream: Readable): Promise<SniffVerdict> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = '';
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      if (bytes.includes(0)) return { ok: false, reason: 'a NUL byte in a text file' };
      const text = decoder.decode(bytes, { stream: true });
      if (head.length < 1024) head += text;
    }
    decoder.decode();
  } catch {
    return { ok: false, reason: 'a text file that is not UTF-8' };
  } finally {
    stream.destroy();
  }
  return looksLikePage(head) ? { ok: false, reason: 'a web page' } : { ok: true };
}

const canonical = (mime: string) => ALIASES[mime] ?? mime;

/** The declared type (`type/subtype`, lower case, no parameters) and the stored bytes against the extension's entry. */
export async function sniffUpload(bucket: BlobBucket, blob: BlobInfo, entry: UploadTypeEntry, declared: string): Promise<SniffVerdict> {
  const head = await bucket.open(blob.id);
  if (!head) return { ok: false, reason: 'no bytes' };
  // file-type is ESM-only and loads its signature tables on the first upload, not with the host.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(await readHead(head, HEAD_BYTES));
  const expected = entry.mime;
  const given = canonical(declared);
  if (!GENERIC.has(declared) && given !== expected && given !== found?.mime)
    return { ok: false, reason: `declared ${declared}, named as ${expected}` };
  if (isTextType(expected)) {
    if (found) return { ok: false, reason: `${found.mime} named as text` };
    const whole = await bucket.open(blob.id);
    return whole ? checkText(whole) : { ok: false, reason: 'no bytes' };
  }
  if (!found) return { ok: false, reason: `bytes that are not ${expected}` };
  const matches =
    found.mime === expected ||
    entry.extensions.includes(found.ext) ||
    (CONTAINERS[found.ext] ?? []).some((ext) => entry.extensions.includes(ext));
  return matches ? { ok: true } : { ok: false, reason: `${found.mime} named as ${expected}` };
}
