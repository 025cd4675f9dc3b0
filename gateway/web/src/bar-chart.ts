/**
 * A daily bar chart drawn by uPlot (bundled; no CDN): one bar per UTC day, the partial current day in
 * its own colour, and optionally a marker on days without a price. The x axis is the day's index, so
 * bars sit at whole numbers and the legend, which follows the pointer, names the day and its values
 * (the latest full day's when the pointer is elsewhere).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './dom.js';
import { compact, shortDay } from './format.js';

export interface BarChartInput {
  title: string;
  /** A second, quieter caption line (e.g. where the drawn days begin). */
  subtitle?: string;
  /** The y axis label, with its unit. */
  unit: string;
  days: string[];
  values: (number | null)[];
  partial: boolean[];
  /** Days with burns but no price: marked at zero (TAO charts). */
  unpriced?: boolean[];
  format: (value: number) => string;
}

export function barChart(input: BarChartInput): { element: HTMLElement; destroy(): void } {
  const figure = h('figure', { class: 'chart', 'data-chart': input.title });
  const caption = h(
    'figcaption',
    {},
    input.title,
    input.subtitle ? h('span', { class: 'subtitle' }, input.subtitle) : null,
  );
  const plot = h('div', { class: 'plot' });
  figure.append(caption, plot);

  const n = input.days.length;
  const x = input.days.map((_, i) => i);
  const complete = input.values.map((value, i) => (input.partial[i] ? null : value));
  const partial = input.values.map((value, i) => (input.partial[i] ? value : null));
  const unpriced = input.unpriced?.map((flag) => (flag ? 0 : null));
  const css = getComputedStyle(document.documentElement);
  const colour = (name: string) => css.getPropertyValue(name).trim() || '#888';
  const bars = uPlot.paths.bars!({ size: [0.7, 48], align: 0 });
  // With no day under the pointer (idx null) the legend shows the latest complete day, named as such,
  // and today's partial figure: a reader sees numbers at once instead of a row of dashes.
  const latest = input.partial.lastIndexOf(false);
  const today = input.partial.lastIndexOf(true);
  const shown = (value: number | null | undefined) =>
    value === null || value === undefined ? '–' : input.format(value);
  const legendValue =
    (fallback: number) => (_u: uPlot, value: number | null, _series: number, idx: number | null) =>
      idx === null ? shown(fallback < 0 ? null : input.values[fallback]) : shown(value);

  const series: uPlot.Series[] = [
    {
      label: 'Day (UTC)',
      value: (_u, value, _series, idx) => {
        if (idx === null) return latest < 0 ? '–' : `${input.days[latest]} (latest full day)`;
        return value === null ? '–' : (input.days[Math.round(value)] ?? '–');
      },
    },
    {
      label: input.unit,
      fill: colour('--bar'),
      stroke: colour('--bar'),
      width: 0,
      paths: bars,
      points: { show: false },
      value: legendValue(latest),
    },
    {
      label: 'Today so far (partial)',
      fill: colour('--bar-partial'),
      stroke: colour('--bar-partial'),
      width: 0,
      paths: bars,
      points: { show: false },
      value: legendValue(today),
    },
  ];
  const data: uPlot.AlignedData = [x, complete, partial];
  if (unpriced) {
    series.push({
      label: 'No price that day',
      stroke: colour('--warn'),
      width: 0,
      paths: () => null,
      points: { show: true, size: 9, fill: colour('--warn'), stroke: colour('--warn') },
      value: (_u, value, _series, idx) => {
        const flagged = idx === null ? latest >= 0 && unpriced[latest] === 0 : value !== null;
        return flagged ? 'not priced' : '–';
      },
    });
    data.push(unpriced);
  }
  const axis = {
    stroke: colour('--muted'),
    grid: { stroke: colour('--grid'), width: 1 },
    ticks: { show: false },
  };
  const options: uPlot.Options = {
    width: 600,
    height: 240,
    scales: {
      x: { time: false, range: () => [-0.5, n - 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] },
    },
    axes: [
      {
        ...axis,
        grid: { show: false },
        incrs: [1, 2, 7, 14, 30, 60, 91],
        space: 56,
        values: (_u, splits) => splits.map((i) => (input.days[i] ? shortDay(input.days[i]) : '')),
        label: 'UTC day (month-day)',
        labelSize: 20,
        size: 28,
      },
      {
        ...axis,
        label: input.unit,
        labelSize: 24,
        size: 56,
        values: (_u, splits) => splits.map((value) => compact(value)),
      },
    ],
    series,
    legend: { live: true },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
  };
  const chart = new uPlot(options, data, plot);
  // The chart follows its box: the page reflows from phone to desktop widths.
  const fit = () => {
    const width = Math.max(260, Math.floor(plot.clientWidth));
    if (width !== chart.width) chart.setSize({ width, height: width < 500 ? 200 : 240 });
  };
  const observer = new ResizeObserver(fit);
  observer.observe(plot);
  requestAnimationFrame(fit);
  return {
    element: figure,
    destroy() {
      observer.disconnect();
      chart.destroy();
    },
  };
}
