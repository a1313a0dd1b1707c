/**
 * An upload's file name: read from `Content-Disposition` (RFC 6266, with RFC 5987's
 * `filename*=UTF-8''…` preferred over `filename=`) and made safe to store, show, and put
 * in a URL path segment or a header.
 */
import { createRequire } from 'node:module';
import type * as ContentDisposition from 'content-disposition';

// Loaded with the first raw upload, not with the host (it is CommonJS: `require` is synchronous).
const require = createRequire(import.meta.url);
let library: typeof ContentDisposition | undefined;
const contentDisposition = () => (library ??= require('content-disposition') as typeof ContentDisposition);

/**
 * Characters that are never part of a name: C0/C1 controls and DEL, the bidirectional
 * controls that make `photo\u202Egnp.exe` show as `photoexe.png` (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C), the line and paragraph separators and the BOM;
 * then what Windows, URLs or shells make trouble of.
 */
const UNSAFE = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u2028\u2029\uFEFF"<>:|?*%#;`$&{}[\]^~]/gu;

/**
 * A file name safe to store, show and put in a URL path segment or a header: the last
 * path segment, without the characters above, leading dots or spaces; at most 200
 * characters; 'file' when nothing remains.
 */
export function sanitizeFilename(name: string | undefined | null): string {
  let out = String(name ?? '')
    .split(/[/\\]/)
    .pop()!
    .normalize('NFC')
    .replace(UNSAFE, '')
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

/**
 * Node hands header values over as latin1, one character per byte: a client that put a
 * raw UTF-8 name in `filename="…"` (most do) shows up as mojibake. When the bytes are
 * valid UTF-8 they are read as UTF-8; otherwise the latin1 reading stands.
 */
function utf8Reading(value: string): string {
  // eslint-disable-next-line no-control-regex -- the question is exactly "any byte above 0x7f, none above 0xff"
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/**
 * The file name a Content-Disposition header gives, unsanitized; null when the header has
 * none or cannot be read (`filename*` wins over `filename`, as RFC 6266 says).
 */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const { parse, decodeExtended } = contentDisposition();
  let parameters: Record<string, string>;
  try {
    parameters = parse(header).parameters;
  } catch {
    return null;
  }
  const extended = parameters['filename*'];
  const decoded = extended !== undefined ? decodeExtended(extended) : undefined;
  if (decoded) return decoded;
  // A plain `filename` (or one left by an undecodable `filename*`) is still bytes.
  const plain = parameters.filename;
  return plain ? utf8Reading(plain) : null;
}
