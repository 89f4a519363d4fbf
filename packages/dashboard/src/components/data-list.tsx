/**
 * A list of the merchant API, a page at a time, following its cursors (`next_cursor`,
 * `previous_cursor`) kept in the address (`after`, `before`) so the browser's back button and a
 * reload keep the place. On narrow screens each row shows as a card (CSS, from the labels).
 */
import type { ComponentChildren } from 'preact';
import { merchantApi } from '../api.js';
import { commonTexts } from '../common-texts.js';
import { useTexts } from '../i18n.js';
import { navigate, useLocation, withQuery } from '../router.js';
import { ErrorMessage, Loading } from './feedback.js';
import { useApi } from './use-api.js';

export interface ListAnswer<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  previous_cursor: string | null;
}

export interface Column<T> {
  label: string;
  render(row: T): ComponentChildren;
  /** Right-aligned (amounts). */
  numeric?: boolean;
}

export function DataList<T extends { id: string }>({
  path,
  query,
  columns,
  rowHref,
  caption,
  limit = 20,
}: {
  path: string;
  query: Record<string, string | undefined>;
  columns: Column<T>[];
  rowHref?: (row: T) => string;
  caption: string;
  limit?: number;
}) {
  const t = useTexts(commonTexts);
  const location = useLocation();
  const after = location.query.get('after') ?? undefined;
  const before = location.query.get('before') ?? undefined;
  const key = JSON.stringify([path, query, after, before]);
  const list = useApi(() => merchantApi<ListAnswer<T>>(path, { query: { ...query, limit, starting_after: after, ending_before: before } }), [key]);

  const move = (cursor: { after?: string; before?: string }) => {
    const current = Object.fromEntries(location.query.entries());
    navigate(withQuery(location.path, { ...current, after: cursor.after, before: cursor.before }));
  };

  if (list.error) return <ErrorMessage error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading />;
  const { data, next_cursor, previous_cursor, has_more } = list.data;
  const showPrevious = Boolean(previous_cursor) && (after !== undefined || (before !== undefined && has_more));
  const showNext = Boolean(next_cursor) && (before !== undefined || has_more);
  return (
    <div class="data-list" aria-busy={list.loading}>
      {data.length === 0 ? (
        <p class="muted">{t('empty')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" class={column.numeric ? 'numeric' : undefined}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.id}>
                {columns.map((column, index) => (
                  <td data-label={column.label} class={column.numeric ? 'numeric' : undefined}>
                    {index === 0 && rowHref ? <a href={rowHref(row)}>{column.render(row)}</a> : column.render(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={caption}>
        <button type="button" class="button-secondary" disabled={!showPrevious} onClick={() => move({ before: previous_cursor ?? undefined })}>
          {t('previous')}
        </button>
        <button type="button" class="button-secondary" disabled={!showNext} onClick={() => move({ after: next_cursor ?? undefined })}>
          {t('next')}
        </button>
      </nav>
    </div>
  );
}
