import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

interface FilterField {
  name: string;
  label: string;
  type?: 'text' | 'datetime-local';
}

/**
 * A list's filter bar: its fields, kept as typed until the button applies them; `onApply` gets
 * every field trimmed, an empty one as undefined.
 */
export function FilterForm({
  fields,
  submit,
  search,
  onApply,
}: {
  fields: FilterField[];
  submit: string;
  /** The bar is the page's search (role `search`). */
  search?: boolean;
  onApply: (values: Record<string, string | undefined>) => void;
}) {
  const [draft, setDraft] = useState<Record<string, string>>({});
  function apply(event: FormEvent) {
    event.preventDefault();
    onApply(Object.fromEntries(fields.map(({ name }) => [name, draft[name]?.trim() || undefined])));
  }
  return (
    <form className="admin-toolbar" role={search ? 'search' : undefined} onSubmit={apply}>
      {fields.map(({ name, label, type }) => (
        <TextField
          key={name}
          label={label}
          type={type}
          value={draft[name] ?? ''}
          onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
        />
      ))}
      <Button type="submit">{submit}</Button>
    </form>
  );
}
