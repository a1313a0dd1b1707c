import { useEffect, useState } from 'preact/hooks';
import type { HandlerField } from './model.js';

/**
 * A form generated from a handler's own settings schema (GET /handlers/{slug}): one input
 * per field, typed as the handler declares it, starting from the step's saved values. It
 * has no save button of its own: it reports the values it would send (when it opens, and
 * `edited` on every change) and the page saves them with its other changes.
 */
export function SettingsForm({
  fields,
  values,
  onChange,
  onSubmit,
  idPrefix,
}: {
  fields: Record<string, HandlerField>;
  values: Record<string, unknown>;
  onChange: (values: Record<string, unknown>, edited: boolean) => void;
  onSubmit: () => void;
  idPrefix: string;
}) {
  const [draft, setDraft] = useState<Record<string, unknown>>(() => {
    const start: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields))
      start[key] = values[key] ?? field.current_value ?? field.default ?? (field.type === 'boolean' ? false : '');
    return start;
  });
  const outOf = (draft: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(fields)) {
      const value = draft[key];
      if (field.type === 'integer' || field.type === 'number') {
        if (value === '' || value === null || value === undefined) continue;
        out[key] = Number(value);
      } else if (value !== '' || values[key] !== undefined) {
        out[key] = value;
      }
    }
    return out;
  };
  useEffect(() => onChange(outOf(draft), false), []);
  const set = (key: string, value: unknown) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    onChange(outOf(next), true);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit();
  };
  const entries = Object.entries(fields);
  return (
    <form class="settings" onSubmit={submit}>
      {entries.length === 0 ? <p class="muted">This handler has no settings.</p> : null}
      {entries.map(([key, field]) => {
        const id = `${idPrefix}-${key}`;
        const options = (field.options ?? []).map((o) => (typeof o === 'string' ? { value: o, label: o } : o));
        // A stored value that is no longer a choice (its plugin removed, or saved before it
        // was checked) is shown as it is, not as the first choice the browser would select.
        const current = draft[key];
        if (options.length > 0 && typeof current === 'string' && current !== '' && !options.some((o) => o.value === current))
          options.unshift({ value: current, label: `${current} (not a choice any more)` });
        const help = field.description ? <small id={`${id}-help`}>{field.description}</small> : null;
        const described = field.description ? `${id}-help` : undefined;
        if (field.type === 'boolean') {
          return (
            <div class="field check" key={key}>
              <input
                id={id}
                name={key}
                type="checkbox"
                checked={Boolean(draft[key])}
                aria-describedby={described}
                onChange={(e) => set(key, (e.target as HTMLInputElement).checked)}
              />
              <label for={id}>{field.label ?? key}</label>
              {help}
            </div>
          );
        }
        return (
          <div class="field" key={key}>
            <label for={id}>{field.label ?? key}</label>
            {options.length > 0 ? (
              <select
                id={id}
                name={key}
                value={String(draft[key] ?? '')}
                aria-describedby={described}
                onChange={(e) => set(key, (e.target as HTMLSelectElement).value)}
              >
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : field.type === 'integer' || field.type === 'number' ? (
              <input
                id={id}
                name={key}
                type="number"
                step={field.type === 'integer' ? 1 : 'any'}
                value={String(draft[key] ?? '')}
                aria-describedby={described}
                onInput={(e) => set(key, (e.target as HTMLInputElement).value)}
              />
            ) : (
              <input
                id={id}
                name={key}
                type="text"
                value={String(draft[key] ?? '')}
                aria-describedby={described}
                onInput={(e) => set(key, (e.target as HTMLInputElement).value)}
              />
            )}
            {help}
          </div>
        );
      })}
    </form>
  );
}
