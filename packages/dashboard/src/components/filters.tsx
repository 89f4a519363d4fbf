/**
 * Filters of a list kept in the address: submitting the form navigates with the new query (and
 * from the first page again); dates are turned into the API's created_gte / created_lte.
 */
import type { ComponentChildren } from 'preact';
import { commonTexts } from '../common-texts.js';
import { useTexts } from '../i18n.js';
import { navigate, useLocation, withQuery } from '../router.js';

export function Filters({ children, label }: { children: ComponentChildren; label: string }) {
  const t = useTexts(commonTexts);
  const location = useLocation();
  const submit = (event: Event) => {
    event.preventDefault();
    const values = Object.fromEntries([...new FormData(event.currentTarget as HTMLFormElement).entries()].map(([name, value]) => [name, String(value).trim()]));
    navigate(withQuery(location.path, values));
  };
  return (
    <form class="filters" role="search" aria-label={label} onSubmit={submit}>
      {children}
      <div class="filters-actions">
        <button type="submit" class="button">
          {t('filter')}
        </button>
        <a class="button-secondary" href={location.path}>
          {t('reset')}
        </a>
      </div>
    </form>
  );
}

/** The list API's query from the address: the named filters, and dates as whole days (UTC). */
export function listQueryFrom(query: URLSearchParams, names: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of names) out[name] = query.get(name) || undefined;
  const from = query.get('from');
  const to = query.get('to');
  if (from) out.created_gte = `${from}T00:00:00.000Z`;
  if (to) out.created_lte = `${to}T23:59:59.999Z`;
  return out;
}
