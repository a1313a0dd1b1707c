import { PluginError } from '../errors.js';

/** One contribution: the item and the plugin that added it. */
export interface RegistryEntry<T> {
  readonly owner: string;
  readonly item: T;
}

/**
 * A plain list of `{owner, item}` for one kind of contribution (handlers, chat tools...),
 * keyed by one field of the item. Plugins add during their setup; the host seals the list
 * once every setup has run, and only then may it be read, so nobody acts on half a list.
 * Every refusal is a PluginError naming the plugin that added the item.
 */
export class Registry<T extends object> {
  private readonly entryList: Array<RegistryEntry<T>> = [];
  private readonly byKey = new Map<string, RegistryEntry<T>>();
  private readonly byItem = new WeakMap<object, string>();
  private sealed = false;

  /**
   * @param name what the list holds, as errors name it ('handlers', 'chat.tools').
   * @param key the field that identifies an item; two items with one key refuse start-up.
   * @param check the owner's test of an item (throws with what is wrong); run at add time.
   */
  constructor(
    readonly name: string,
    readonly key: keyof T & string,
    private readonly check?: (item: T) => void,
  ) {}

  /** Records `item` as `owner`'s; refuses a malformed item, a taken key and a late add. */
  add(owner: string, item: T): void {
    if (this.sealed) throw new PluginError(owner, `adds to '${this.name}' after the host booted; add contributions in setup`);
    if (!item || typeof item !== 'object') throw new PluginError(owner, `added a '${this.name}' entry that is not an object`);
    const key = (item as Record<string, unknown>)[this.key];
    if (typeof key !== 'string' || key === '') throw new PluginError(owner, `added a '${this.name}' entry without a '${this.key}'`);
    const before = this.byKey.get(key);
    if (before)
      throw new PluginError(owner, `duplicate ${this.name} '${key}': contributed by plugin '${before.owner}' and plugin '${owner}'`);
    if (this.check) {
      try {
        this.check(item);
      } catch (error) {
        throw new PluginError(owner, `${this.name} '${key}': ${(error as Error).message}`, { cause: error });
      }
    }
    const entry = Object.freeze({ owner, item });
    this.entryList.push(entry);
    this.byKey.set(key, entry);
    this.byItem.set(item, owner);
  }

  /** Closes the list: from now on it may be read, and no longer added to. */
  seal(): void {
    this.sealed = true;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** The items, in the order they were added (plugin order, then call order). */
  list(): readonly T[] {
    return this.entries().map((entry) => entry.item);
  }

  entries(): ReadonlyArray<RegistryEntry<T>> {
    if (!this.sealed)
      throw new Error(`Registry '${this.name}' is read before the host booted; read it inside a route handler or a 'booted' tap`);
    return this.entryList;
  }

  get(key: string): T | undefined {
    this.entries();
    return this.byKey.get(key)?.item;
  }

  /** The plugin that added the item with this key. */
  ownerOf(key: string): string | undefined {
    return this.byKey.get(key)?.owner;
  }

  /** The plugin that added this very item (for errors about an item in hand). */
  ownerOfItem(item: object): string | undefined {
    return this.byItem.get(item);
  }

  /** Keys each owner added, for `flowhost plugins list`; readable before sealing. */
  keysOf(owner: string): string[] {
    return this.entryList
      .filter((entry) => entry.owner === owner)
      .map((entry) => String((entry.item as Record<string, unknown>)[this.key]));
  }
}
