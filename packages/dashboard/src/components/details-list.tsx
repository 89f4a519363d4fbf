import type { ComponentChildren } from 'preact';

/** An object's fields as label/value rows (a detail page's first block). */
export function DetailsList({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="details">
      {rows.map(([label, value]) => (
        <div>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
