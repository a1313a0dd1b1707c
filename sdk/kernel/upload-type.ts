/**
 * An upload's content type. Its own module, without the multipart parser, so the CLI can
 * name the type of a file it streams without loading busboy.
 */

const EXTENSION_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  xml: 'application/xml',
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `type/subtype` in lower case without parameters; the file name's extension when the client sent none or octet-stream. */
export function uploadContentType(declared: string | undefined, filename: string): string {
  const base = String(declared ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const valid = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(base);
  if (valid && base !== 'application/octet-stream') return base;
  const dot = filename.lastIndexOf('.');
  const guess = dot > 0 ? EXTENSION_TYPES[filename.slice(dot + 1).toLowerCase()] : undefined;
  return guess ?? 'application/octet-stream';
}
