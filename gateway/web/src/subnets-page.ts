/**
 * `/`: every subnet in a table that sorts by any column and filters by name or netuid, the freshness
 * line, the network's 7-day figures, and each subnet's emission status from the emissions watch.
 */
import type { EmissionsSnapshot } from '../../../pipeline/contract/emissions.js';
import type { SubnetList } from '../../../pipeline/contract/subnet-list.js';
import type { SubnetRow } from '../../../pipeline/contract/subnet-row.js';
import { ApiError, getJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import {
  ALPHA,
  amount,
  changePercent,
  count,
  NEW_CHANGE_PCT,
  number,
  shortChangePercent,
  shortNumber,
  TAO,
} from './format.js';
import { freshnessLine } from './freshness.js';
import { asOfDayPartial } from './partial-day.js';
import { sparkLine } from './spark-line.js';

type Status = 'emitting' | 'suspended' | 'unknown';

interface Column {
  key: string;
  /** The heading on the page: short, since the table must fit a laptop's width. */
  label: string;
  /** The heading in full, for screen readers and the tooltip, when the short one leans on its group. */
  fullLabel?: string;
  /** Columns with a group share a heading above theirs (alpha or TAO over 24 h / 7 d / 30 d). */
  group?: string;
  /** The value the column sorts by; null sorts last in either direction. */
  sortValue: (row: SubnetRow, status: Status) => number | string | null;
  numeric: boolean;
  cell: (row: SubnetRow, status: Status, list: SubnetList) => HTMLTableCellElement;
}

/**
 * An amount cell: the short figure (suffix in its own box, so a column's decimal points line up), the
 * exact figure in `title` and `data-value`; zero is muted, a missing price says so in words.
 */
const amountCell = (value: number | null, unit: string) => {
  if (value === null) {
    return h('td', { class: 'num none', 'data-value': '', title: 'No price for this subnet' }, 'not priced');
  }
  const { digits, suffix } = shortNumber(value);
  return h(
    'td',
    {
      class: value === 0 ? 'num zero' : 'num',
      'data-value': String(value),
      title: `${number(value)} ${unit}`,
    },
    digits,
    h('span', { class: 'suffix' }, suffix),
  );
};

const WINDOWS = [
  ['24h', '24 h'],
  ['7d', '7 d'],
  ['30d', '30 d'],
] as const;

const GROUPS = {
  alpha: `Alpha burned (${ALPHA})`,
  tao: `TAO value (${TAO})`,
};

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
  ...WINDOWS.map(
    ([window, label]): Column => ({
      key: `alpha_${window}`,
      label,
      fullLabel: `Alpha burned, ${label} (${ALPHA})`,
      group: GROUPS.alpha,
      numeric: true,
      sortValue: (row) => row[`alpha_${window}`],
      cell: (row) => amountCell(row[`alpha_${window}`], ALPHA),
    }),
  ),
  ...WINDOWS.map(
    ([window, label]): Column => ({
      key: `tao_${window}`,
      label,
      fullLabel: `TAO value, ${label} (${TAO})`,
      group: GROUPS.tao,
      numeric: true,
      sortValue: (row) => row[`tao_${window}`],
      cell: (row) => amountCell(row[`tao_${window}`], TAO),
    }),
  ),
  {
    key: 'change_7d_pct',
    label: 'Change 7\u00a0d',
    fullLabel: 'Change 7 d, against the 7 days before',
    numeric: true,
    sortValue: (row) => row.change_7d_pct,
    cell: (row) => {
      const change = row.change_7d_pct;
      return h(
        'td',
        {
          class: change === null ? 'num none' : `num ${change >= 0 ? 'up' : 'down'}`,
          'data-value': change === null ? '' : String(change),
          title:
            change === null
              ? 'No burn in the 7 days before: no change to measure'
              : change >= NEW_CHANGE_PCT
                ? `New: the 7 days before burned next to nothing (${changePercent(change)})`
                : `${changePercent(change)} against the 7 days before`,
        },
        shortChangePercent(change),
      );
    },
  },
  {
    key: 'spark7',
    label: 'Last 7\u00a0days',
    fullLabel: 'Last 7 days, alpha burned per day',
    numeric: true,
    sortValue: (row) => (row.spark7 ?? []).reduce((sum, value) => sum + value, 0),
    cell: (row, _status, list) =>
      h(
        'td',
        { class: 'spark-cell' },
        sparkLine(
          row.spark7 ?? [],
          `Alpha burned per day, last 7 days, subnet ${row.netuid}`,
          asOfDayPartial(list.as_of),
        ),
      ),
  },
  {
    key: 'claim',
    label: 'Claim',
    fullLabel:
      "Claim: the latest buyback claim a subnet's team has published, dated, linked to its source. Empty for " +
      'most subnets: few teams publish one. A claim is what the team says, not verified revenue.',
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
  // Two heading rows: a group's name above its 24 h / 7 d / 30 d columns; the others span both rows.
  const groupRow = h('tr');
  const columnRow = h('tr');
  for (const [index, column] of COLUMNS.entries()) {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'sort',
        'aria-label': column.fullLabel ?? null,
        title: column.fullLabel ?? null,
      },
      column.label,
    );
    button.addEventListener('click', () => {
      if (sortKey === column.key) descending = !descending;
      else {
        sortKey = column.key;
        descending = column.numeric;
      }
      draw();
    });
    const th = h(
      'th',
      {
        scope: 'col',
        class: column.numeric ? 'num' : '',
        'data-key': column.key,
        rowspan: column.group ? null : 2,
      },
      button,
    );
    headers.set(column.key, th);
    if (!column.group) {
      groupRow.appendChild(th);
      continue;
    }
    columnRow.appendChild(th);
    if (COLUMNS[index - 1]?.group !== column.group) {
      const span = COLUMNS.filter((c) => c.group === column.group).length;
      groupRow.appendChild(h('th', { scope: 'colgroup', colspan: span, class: 'group' }, column.group));
    }
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
        h('tr', { 'data-netuid': row.netuid }, ...COLUMNS.map((c) => c.cell(row, statusOf(row), list))),
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
      h('table', { class: 'subnets' }, h('thead', {}, groupRow, columnRow), tbody),
    ),
    h(
      'p',
      { class: 'note' },
      'Amounts in the table are short for reading (K thousand, M million; hover for the exact figure). TAO values use each subnet’s latest pool price; "not priced" means no price, never 0. ',
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
