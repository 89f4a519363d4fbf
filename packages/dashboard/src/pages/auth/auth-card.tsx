import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** The narrow card the signed-out pages sit in. */
export function AuthCard({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Akwe`;
  }, [title]);
  return (
    <main class="auth" id="main">
      <p class="brand">Akwe</p>
      <section class="card">
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
