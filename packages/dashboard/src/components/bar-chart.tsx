/**
 * Daily bars in plain SVG (no chart library: a few hundred bytes). The figures are also in a
 * table for screen readers; the drawing is hidden from them.
 */
export interface Bar {
  label: string;
  value: number;
  /** The value as people read it (formatted amount). */
  text: string;
}

export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const step = width / Math.max(1, bars.length);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {bars.map((bar, index) => {
          const barHeight = Math.round((bar.value / max) * (height - 4));
          return <rect x={index * step + step * 0.15} y={height - barHeight} width={step * 0.7} height={barHeight} class="chart-bar" />;
        })}
      </svg>
      <figcaption>{title}</figcaption>
      <table class="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr>
              <th scope="row">{bar.label}</th>
              <td>{bar.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
