/**
 * A small History-API router: paths like `/dashboard/payments/:id`, links that do not reload the
 * page, and the query string as the state of lists and filters (so a page can be shared or reloaded).
 */
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
  window.scrollTo(0, 0);
}

addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** The current location; re-renders on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return { path: location.pathname.replace(/\/+$/, '') || '/', query: new URLSearchParams(location.search) };
}

/** The parameters of `pattern` in `path`, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source}$`).exec(path);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

/** Turns a click on an in-app link into a navigation (modified clicks open a tab as usual). */
export function followLink(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  const href = anchor?.getAttribute('href');
  if (!anchor || !href || anchor.target || anchor.hasAttribute('download') || !href.startsWith('/') || href.startsWith('/api/')) return;
  event.preventDefault();
  navigate(href);
}

/** `base` with the query's entries replaced (empty values removed). */
export function withQuery(base: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}
