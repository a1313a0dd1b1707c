/**
 * The web search API key: saved with PUT /tools/web-search, sealed with the vault in this
 * plugin's store (never in a settings read, masked in every answer), else the config's
 * `search_api_key` (for deployments that configure through the environment).
 */
import type { Collection, Vault } from '../../sdk/index.js';

const DOC_ID = 'web_search';
/** Binds the sealed value to its purpose: it cannot be replayed as another secret. */
const CONTEXT = 'global-tools:web_search.api_key';
const MASK_PREFIX = '••••';

export interface SearchKeyDoc extends Record<string, unknown> {
  _id: string;
  api_key?: string;
}

export class SearchKey {
  constructor(
    private readonly collection: Collection<SearchKeyDoc>,
    private readonly vault: Vault,
    private readonly fallback: string,
  ) {}

  /** The key in use: the saved one, else the config's; '' when neither. */
  async current(): Promise<string> {
    const sealed = (await this.collection.findOne({ _id: DOC_ID }))?.api_key;
    if (typeof sealed === 'string' && sealed) return this.vault.decrypt(sealed, CONTEXT);
    return this.fallback;
  }

  /** '' removes the saved key; a masked value (what GET answered) keeps it. */
  async save(key: string): Promise<void> {
    if (key.startsWith(MASK_PREFIX)) return;
    if (key.trim() === '') await this.collection.updateOne({ _id: DOC_ID }, { $unset: { api_key: '' } });
    else await this.collection.updateOne({ _id: DOC_ID }, { $set: { api_key: this.vault.encrypt(key.trim(), CONTEXT) } }, { upsert: true });
  }
}
