/**
 * `/`: every subnet in a table that sorts by any column and filters by name or netuid, the freshness
 * line, the network's 7-day figures, and each subnet's emission status from the emissions watch.
 */
import type { EmissionsSnapshot } from '../../../pipeline/contract/emissions.js';
import type { SubnetList } from '../../../pipeline/contract/subnet-list.js';
import type { SubnetRow } from '../../../pipeline/contract/subnet-row.js';
import { ApiError, getJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { ALPHA, amount, changePercent, count, TAO, tableNumber } from './format.js';
import { freshnessLine } from './freshness.js';
import { sparkLine } from './spark-line.js';

type Status = 'emitting' | 'suspended' | 'unknown';

interface Column {
  key: string;
  label: string;
  /** The value the column sorts by; null sorts last in either direction. */
  sortValue: (row: SubnetRow, status: Status) => number | string | null;
  numeric: boolean;
  cell: (row: SubnetRow, status: Status) => HTMLTableCellElement;
}

const numberCell = (value: number | null, text: string) =>
  h(
    'td',
    {
      class: 'num',
      'data-value': value === null ? '' : String(value),
      title: value === null ? null : String(value),
    },
    text,
  );

const COLUMNS: Column[] = [
  {
    key: 'netuid',
    label: 'Netuid',
    numeric: true,
    sortValue: (row) => row.netuid,
    cell: (row) => h('td', { class: 'num', 'data-value': row.netuid }, String(row.netuid)),
  },
  {
    key: 'name',
    label: 'Name',
    numeric: false,
    sortValue: (row) => row.name.toLowerCase(),
    cell: (row) =>
      h('td', { class: 'name' }, h('a', { href: `/subnets/${row.netuid}` }, row.name || '(unnamed)')),
  },
  {
    key: 'emissions',
    label: 'Emissions',
    numeric: false,
    sortValue: (_row, status) => status,
    cell: (_row, status) => h('td', {}, h('span', { class: `status ${status}` }, status)),
  },
  ...(['24h', '7d', '30d'] as const).map(
    (window): Column => ({
      key: `alpha_${window}`,
      label: `${window.replace('h', ' h').replace('d', ' d')} burned (${ALPHA})`,
      numeric: true,
      sortValue: (row) => row[`alpha_${window}`],
      cell: (row) => numberCell(row[`alpha_${window}`], tableNumber(row[`alpha_${window}`])),
    }),
  ),
  ...(['24h', '7d', '30d'] as const).map(
    (window): Column => ({
      key: `tao_${window}`,
      label: `${window.replace('h', ' h').replace('d', ' d')} (${TAO})`,
      numeric: true,
      sortValue: (row) => row[`tao_${window}`],
      cell: (row) => numberCell(row[`tao_${window}`], tableNumber(row[`tao_${window}`])),
    }),
  ),
  {
    key: 'change_7d_pct',
    label: 'Change 7 d',
    numeric: true,
    sortValue: (row) => row.change_7d_pct,
    cell: (row) => {
      const cell = numberCell(row.change_7d_pct, changePercent(row.change_7d_pct));
      if (row.change_7d_pct !== null) cell.classList.add(row.change_7d_pct >= 0 ? 'up' : 'down');
      return cell;
    },
  },
  {
    key: 'spark7',
    label: 'Last 7 days',
    numeric: true,
    sortValue: (row) => (row.spark7 ?? []).reduce((sum, value) => sum + value, 0),
    cell: (row) =>
      h(
        'td',
        { class: 'spark-cell' },
        sparkLine(row.spark7 ?? [], `Alpha burned per day, last 7 days, subnet ${row.netuid}`),
      ),
  },
  {
    key: 'claim',
    label: 'Claim',
    numeric: false,
    sortValue: (row) => (row.claim ? row.claim.text.toLowerCase() : null),
    cell: (row) =>
      h(
        'td',
        { class: 'claim' },
        row.claim
          ? h(
              'a',
              { href: row.claim.source, rel: 'noopener noreferrer', title: row.claim.text },
              row.claim.text,
            )
          : '',
      ),
  },
];

export async function renderSubnetsPage(app: HTMLElement): Promise<void> {
  const [list, emissions] = await Promise.all([getJson<SubnetList>('/api/v1/subnets'), emissionStatuses()]);
  const statusOf = (row: SubnetRow): Status => emissions.get(row.netuid) ?? 'unknown';

  let sortKey = 'alpha_7d';
  let descending = true;
  let filter = '';

  const tbody = h('tbody');
  const headers = new Map<string, HTMLTableCellElement>();
  const headRow = h('tr');
  for (const column of COLUMNS) {
    const button = h('button', { type: 'button', class: 'sort' }, column.label);
    button.addEventListener('click', () => {
      if (sortKey === column.key) descending = !descending;
      else {
        sortKey = column.key;
        descending = column.numeric;
      }
      draw();
    });
    const th = h('th', { scope: 'col', class: column.numeric ? 'num' : '', 'data-key': column.key }, button);
    headers.set(column.key, th);
    headRow.appendChild(th);
  }
  const shown = h('p', { class: 'count', 'aria-live': 'polite' });
  const search = h('input', {
    type: 'search',
    id: 'filter',
    placeholder: 'name or netuid',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  search.addEventListener('input', () => {
    filter = search.value.trim().toLowerCase();
    draw();
  });

  function draw(): void {
    const column = COLUMNS.find((c) => c.key === sortKey)!;
    const rows = list.rows.filter(
      (row) => filter === '' || String(row.netuid) === filter || row.name.toLowerCase().includes(filter),
    );
    rows.sort((a, b) => {
      const x = column.sortValue(a, statusOf(a));
      const y = column.sortValue(b, statusOf(b));
      if (x === y) return a.netuid - b.netuid;
      if (x === null) return 1;
      if (y === null) return -1;
      const order = x < y ? -1 : 1;
      return descending ? -order : order;
    });
    for (const [key, th] of headers) {
      th.setAttribute('aria-sort', key === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
    }
    replaceChildren(
      tbody,
      ...rows.map((row) =>
        h('tr', { 'data-netuid': row.netuid }, ...COLUMNS.map((c) => c.cell(row, statusOf(row)))),
      ),
    );
    shown.textContent = `${count(rows.length)} of ${count(list.rows.length)} subnets`;
  }
  draw();

  const trend = list.trend;
  replaceChildren(
    app,
    freshnessLine(list),
    h(
      'section',
      { class: 'figures', 'aria-label': 'Network, last 7 days' },
      figure('Alpha burned, 7 d', amount(trend.alpha_7d, ALPHA)),
      figure('TAO value, 7 d', amount(trend.tao_7d, TAO)),
      figure('Change against the 7 days before', changePercent(trend.change_7d_pct)),
      figure('Subnets burning, 7 d', count(trend.subnets_burning_7d)),
    ),
    h('div', { class: 'controls' }, h('label', { for: 'filter' }, 'Filter subnets'), search, shown),
    h(
      'div',
      { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Subnets (scrolls sideways)' },
      h('table', { class: 'subnets' }, h('thead', {}, headRow), tbody),
    ),
    h(
      'p',
      { class: 'note' },
      'Amounts in the table are rounded for reading (hover for the exact figure). TAO values use each subnet’s latest pool price; "not priced" means no price, never 0. ',
      'Sort by any column heading. ',
      h('a', { href: list.method_url }, 'How the figures are made'),
      '.',
    ),
  );
}

function figure(label: string, value: string): HTMLElement {
  return h(
    'div',
    { class: 'figure' },
    h('span', { class: 'label' }, label),
    h('span', { class: 'value' }, value),
  );
}

/** netuid → emitting or suspended, from the emissions watch; empty when it has not published. */
async function emissionStatuses(): Promise<Map<number, Status>> {
  try {
    const snapshot = await getJson<EmissionsSnapshot>('/api/v1/emissions');
    return new Map(
      snapshot.rows.map((row) => [row.netuid, row.status === 'flowing' ? 'emitting' : 'suspended']),
    );
  } catch (error) {
    if (error instanceof ApiError) return new Map();
    throw error;
  }
}
