import { svg } from './dom.js';

/**
 * The 7-day spark line of a row: an inline SVG polyline (no canvas per row, no chart library). The
 * last day is the `as_of` day; unless `as_of` closes it, it is the current UTC day so far, which
 * would read as a fall at the end of most lines: it is drawn apart, dashed to a hollow point, and
 * the label says so.
 */
export function sparkLine(values: readonly number[], label: string, lastDayPartial = false): SVGElement {
  const width = 72;
  const height = 22;
  const partial = lastDayPartial && values.length >= 3;
  const chart = svg('svg', {
    class: 'spark',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': partial ? `${label}; the last day is today (UTC) so far, drawn dashed` : label,
  });
  if (values.length < 2) return chart;
  const max = Math.max(...values, 0);
  const step = width / (values.length - 1);
  const y = (value: number) => (max === 0 ? height - 2 : height - 2 - (value / max) * (height - 4));
  const points = values.map((value, i) => `${(i * step).toFixed(1)},${y(value).toFixed(1)}`);
  const complete = partial ? points.slice(0, -1) : points;
  chart.appendChild(svg('polyline', { points: complete.join(' '), fill: 'none', 'stroke-width': 1.5 }));
  if (partial) {
    const [x1, y1] = complete[complete.length - 1]!.split(',');
    const [x2, y2] = points[points.length - 1]!.split(',');
    chart.appendChild(svg('line', { class: 'partial', x1, y1, x2, y2, 'stroke-width': 1.5 }));
    chart.appendChild(svg('circle', { class: 'partial', cx: x2, cy: y2, r: 1.8, 'stroke-width': 1 }));
  }
  return chart;
}
