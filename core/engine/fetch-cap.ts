/**
 * How many new items a fetch step passes on per run: its settings' `max_items`, else 1.
 * A fetch handler whose own settings schema declares no `max_items` therefore yields one
 * item per run, however many it returns. Shared by the engine and the test kit's
 * runHandler, so a handler's tests see the cap a flow applies.
 */
export const DEFAULT_MAX_ITEMS = 1;

export function fetchCap(settings: Readonly<Record<string, unknown>>): number {
  return Number(settings.max_items ?? DEFAULT_MAX_ITEMS);
}
