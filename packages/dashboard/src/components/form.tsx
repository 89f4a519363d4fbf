import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/** A labelled input; its error (from the API's `field`) is tied to it for screen readers. */
export function Field({ label, error, hint, ...input }: { label: string; error?: string | undefined; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {hint ? (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

export function SelectField({ label, children, ...select }: { label: string; children: ComponentChildren } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}

/** Runs a form's action once at a time and keeps its error; the error of a field goes to that field. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const run = async (...args: A) => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await action(...args);
    } catch (caught) {
      setError(caught as Error);
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) => (error instanceof ApiError && error.field === field ? error.message : undefined);
  return { busy, error, run, fieldError, clear: () => setError(undefined) };
}

/** The values of a submitted form, by name. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  return Object.fromEntries([...new FormData(form).entries()].map(([name, value]) => [name, String(value)]));
}
