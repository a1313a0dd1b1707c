import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, useAction } from './components.js';
import { fieldLabel, isSecretField } from './credential-fields.js';

/**
 * PUT /auth/{slug} with every field of the handler's `auth_fields` (the API requires them
 * all). What was typed is sent once and then cleared: the page shows saved values only as
 * the API masks them, so nothing typed stays in the page after saving.
 */
export function CredentialsForm({
  slug,
  label,
  fields,
  onSaved,
}: {
  slug: string;
  label: string;
  fields: string[];
  onSaved: (message: string) => void;
}) {
  const empty = () => Object.fromEntries(fields.map((field) => [field, ''])) as Record<string, string>;
  const [values, setValues] = useState(empty);
  const save = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await save.run(async () => {
      const res = await call<{ message: string }>('PUT', `/auth/${encodeURIComponent(slug)}`, { body: values });
      setValues(empty());
      onSaved(res.message);
    });
  };
  return (
    <form class="inline" onSubmit={submit} aria-label={`Credentials of ${label}`}>
      {fields.map((field) => {
        const input = {
          name: field,
          // Not the console user's own login: no password manager should fill or keep these.
          autocomplete: 'off',
          spellcheck: false,
          required: true,
          maxLength: 4096,
          value: values[field] ?? '',
          onInput: (e: Event) => {
            const value = (e.target as HTMLInputElement).value;
            setValues((current) => ({ ...current, [field]: value }));
          },
        };
        return (
          // biome-ignore lint/a11y/noLabelWithoutControl: the input is inside, chosen by field kind
          <label key={field}>
            {fieldLabel(field)}
            {isSecretField(field) ? <input type="password" {...input} /> : <input type="text" {...input} />}
          </label>
        );
      })}
      <button type="submit" class="primary" disabled={save.busy}>
        Save credentials
      </button>
      <ErrorNote error={save.error} />
    </form>
  );
}
