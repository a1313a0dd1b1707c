import { useCallback, useEffect, useState } from 'preact/hooks';
import { setLeaveGuard } from './router.js';

/**
 * A page's edits that are not saved yet, each with the call that saves it. A flow's page
 * had four save buttons (schedule, each step's settings, the AI message) and a handler
 * chosen in a step's dropdown was lost on reload unless that step's own button was
 * pressed: now every editor of the page reports its edits here, one "Save changes" saves
 * them all, and leaving with any of them unsaved asks first (reload, closing the tab,
 * another console page, Back, signing out).
 */
export interface PendingChange {
  /** What changed, as the page names it: "Schedule", "Step 2 (fetch)". */
  label: string;
  save: () => Promise<unknown>;
}

export interface UnsavedChanges {
  readonly pending: ReadonlyArray<readonly [string, PendingChange]>;
  /** An editor's edit (or null once it is saved or undone), under the editor's own key. */
  track: (key: string, change: PendingChange | null) => void;
}

export function useUnsavedChanges(): UnsavedChanges {
  const [pending, setPending] = useState<ReadonlyMap<string, PendingChange>>(new Map());
  const track = useCallback((key: string, change: PendingChange | null) => {
    setPending((previous) => {
      if (!change && !previous.has(key)) return previous;
      const next = new Map(previous);
      if (change) next.set(key, change);
      else next.delete(key);
      return next;
    });
  }, []);
  const labels = [...pending.values()].map((change) => change.label);
  const warning = labels.length ? `You have unsaved changes (${labels.join(', ')}). Leave this page and lose them?` : null;
  useEffect(() => {
    if (!warning) return undefined;
    // The browser shows its own words for a reload or a closed tab; the console's own
    // navigation asks with these (router.ts).
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set (to any text: they show their own).
      event.returnValue = warning;
    };
    addEventListener('beforeunload', beforeUnload);
    setLeaveGuard(() => warning);
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      setLeaveGuard(null);
    };
  }, [warning]);
  return { pending: [...pending.entries()], track };
}
