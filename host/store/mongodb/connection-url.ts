/**
 * What Flowhost needs to know about a MongoDB connection string without ever repeating
 * its password: where it points (for messages and logs), which database it names, and
 * how to scrub its credentials from any text a driver error might carry.
 */
export interface MongoUrlInfo {
  /** `host:port[,host:port...]`, as written in the URL. */
  readonly hosts: string;
  /** The database from the URL's path; `flowhost` when the path is empty. */
  readonly database: string;
  /** The URL with the password replaced by `***` (safe to print). */
  readonly redacted: string;
  /** Removes the URL's password (raw and percent-decoded) from a text. */
  scrub(text: string): string;
}

export const DEFAULT_DATABASE = 'flowhost';

const URL_SHAPE = /^(mongodb(?:\+srv)?:\/\/)([^/?#]*)(\/[^?#]*)?(.*)$/i;

export class MongoUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MongoUrlError';
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function parseMongoUrl(url: string): MongoUrlInfo {
  const match = URL_SHAPE.exec(typeof url === 'string' ? url.trim() : '');
  if (!match) throw new MongoUrlError('The MongoDB URL must start with mongodb:// or mongodb+srv://');
  const [, scheme, authority, path = '', rest] = match as unknown as [string, string, string, string | undefined, string];
  const at = authority.lastIndexOf('@');
  const credentials = at >= 0 ? authority.slice(0, at) : '';
  const hosts = at >= 0 ? authority.slice(at + 1) : authority;
  if (!hosts) throw new MongoUrlError(`The MongoDB URL names no host (${scheme}...)`);

  const colon = credentials.indexOf(':');
  const user = colon >= 0 ? credentials.slice(0, colon) : credentials;
  const password = colon >= 0 ? credentials.slice(colon + 1) : '';
  const secrets = [...new Set([password, decode(password)])].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);

  const shownCredentials = credentials ? `${user}${colon >= 0 ? ':***' : ''}@` : '';
  const database = decode(path.replace(/^\//, '')) || DEFAULT_DATABASE;
  // Query options may carry secrets too (e.g. a proxy password): keep only the names.
  const redactedQuery = rest.startsWith('?')
    ? `?${rest
        .slice(1)
        .split('&')
        .map((pair) => pair.split('=')[0])
        .filter(Boolean)
        .map((name) => `${name}=...`)
        .join('&')}`
    : '';

  return {
    hosts,
    database,
    redacted: `${scheme}${shownCredentials}${hosts}${path}${redactedQuery}`,
    scrub(text: string): string {
      let out = text.replace(/(mongodb(?:\+srv)?:\/\/)[^@/\s]*@/gi, '$1***@');
      for (const secret of secrets) out = out.split(secret).join('***');
      return out;
    },
  };
}
