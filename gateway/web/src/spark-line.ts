import { svg } from './dom.js';

/** The 7-day spark line of a row: an inline SVG polyline (no canvas per row, no chart library). */
export function sparkLine(values: readonly number[], label: string): SVGElement {
  const width = 72;
  const height = 22;
  const chart = svg('svg', {
    class: 'spark',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': label,
  });
  if (values.length < 2) return chart;
  const max = Math.max(...values, 0);
  const step = width / (values.length - 1);
  const y = (value: number) => (max === 0 ? height - 2 : height - 2 - (value / max) * (height - 4));
  const points = values.map((value, i) => `${(i * step).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
  chart.appendChild(svg('polyline', { points, fill: 'none', 'stroke-width': 1.5 }));
  return chart;
}
