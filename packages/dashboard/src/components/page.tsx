import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** A page: its title in the tab and as the one h1, and optional actions beside it. */
export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Akwe`;
  }, [title]);
  return (
    <section class="page">
      <header class="page-header">
        <h1>{title}</h1>
        {actions ? <div class="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
