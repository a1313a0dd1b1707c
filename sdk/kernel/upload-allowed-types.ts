/**
 * Which files an upload may be: an allow-list keyed like WordPress's `upload_mimes`
 * ("jpg|jpeg|jpe" → "image/jpeg"). The file name's extension picks the entry, the entry's
 * type is the type stored (as WordPress's wp_check_filetype), and the bytes must then be
 * that type (upload-sniff.ts).
 *
 * The default is WordPress's get_allowed_mime_types() less everything a browser could
 * run or render as a page from this origin: no HTML, SVG, XML, JavaScript, CSS, Flash,
 * executables or Java classes. Markdown and JSON are added: the host reads both (posts,
 * the files plugin's items).
 */
export type UploadTypes = Readonly<Record<string, string>>;

export const DEFAULT_UPLOAD_TYPES: UploadTypes = {
  // Images.
  'jpg|jpeg|jpe': 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  bmp: 'image/bmp',
  'tiff|tif': 'image/tiff',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  heic: 'image/heic',
  // Video.
  'asf|asx': 'video/x-ms-asf',
  wmv: 'video/x-ms-wmv',
  avi: 'video/avi',
  'mov|qt': 'video/quicktime',
  'mpeg|mpg|mpe': 'video/mpeg',
  'mp4|m4v': 'video/mp4',
  ogv: 'video/ogg',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp|3gpp': 'video/3gpp',
  '3g2|3gp2': 'video/3gpp2',
  // Text (no magic number: checked as UTF-8 text that is not a page, see upload-sniff.ts).
  'txt|asc': 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ics: 'text/calendar',
  vtt: 'text/vtt',
  'md|markdown': 'text/markdown',
  json: 'application/json',
  // Audio.
  'mp3|m4a|m4b': 'audio/mpeg',
  aac: 'audio/aac',
  wav: 'audio/wav',
  'ogg|oga': 'audio/ogg',
  flac: 'audio/flac',
  'mid|midi': 'audio/midi',
  wma: 'audio/x-ms-wma',
  mka: 'audio/x-matroska',
  // Documents and archives.
  rtf: 'application/rtf',
  pdf: 'application/pdf',
  tar: 'application/x-tar',
  zip: 'application/zip',
  'gz|gzip': 'application/x-gzip',
  rar: 'application/rar',
  '7z': 'application/x-7z-compressed',
  psd: 'application/octet-stream',
  doc: 'application/msword',
  'pot|pps|ppt': 'application/vnd.ms-powerpoint',
  'xla|xls|xlt|xlw': 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odg: 'application/vnd.oasis.opendocument.graphics',
  key: 'application/vnd.apple.keynote',
  numbers: 'application/vnd.apple.numbers',
  pages: 'application/vnd.apple.pages',
};

/** One allowed kind of file: its extensions and the type stored for it. */
export interface UploadTypeEntry {
  extensions: readonly string[];
  mime: string;
}

/** The entry for the file name's extension; null when the extension is not allowed (or there is none). */
export function allowedTypeOf(filename: string, types: UploadTypes): UploadTypeEntry | null {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = filename.slice(dot + 1).toLowerCase();
  for (const [keys, mime] of Object.entries(types)) {
    const extensions = keys.toLowerCase().split('|');
    if (extensions.includes(ext)) return { extensions, mime };
  }
  return null;
}

/** Text formats: no magic number to sniff, so they are held to the text rules instead. */
export function isTextType(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json';
}
