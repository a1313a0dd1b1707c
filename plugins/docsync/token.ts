/**
 * The source-hosting access token: saved with PUT /sync/token, sealed with the vault in this
 * plugin's store and masked in every answer; else the config's `github_token`.
 */
import type { Collection, Vault } from '../../sdk/index.js';

const DOC_ID = 'github_token';
/** Binds the sealed value to its purpose: it cannot be replayed as another secret. */
const CONTEXT = 'docsync:github_token';
const MASK_PREFIX = '••••';

export interface TokenDoc extends Record<string, unknown> {
  _id: string;
  token?: string;
}

export class AccessToken {
  constructor(
    private readonly collection: Collection<TokenDoc>,
    private readonly vault: Vault,
    private readonly fallback: string,
  ) {}

  /** The token in use; '' when none is configured. */
  async current(): Promise<string> {
    const sealed = (await this.collection.findOne({ _id: DOC_ID }))?.token;
    if (typeof sealed === 'string' && sealed) return this.vault.decrypt(sealed, CONTEXT);
    return this.fallback;
  }

  /** '' removes the saved token; a masked value (what GET answered) keeps it. */
  async save(token: string): Promise<void> {
    if (token.startsWith(MASK_PREFIX)) return;
    if (token.trim() === '') await this.collection.updateOne({ _id: DOC_ID }, { $unset: { token: '' } });
    else await this.collection.updateOne({ _id: DOC_ID }, { $set: { token: this.vault.encrypt(token.trim(), CONTEXT) } }, { upsert: true });
  }
}
