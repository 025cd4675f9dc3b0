/**
 * `/subnets/{netuid}`: the subnet's figures, its daily burns as bar charts (alpha, and TAO at each
 * day's own price) over 7, 30, 90 or 365 days, a CSV download, and its emission status and events.
 * 90 and 365 days and the CSV are for subscribers: signed out, those buttons say so instead
 * of asking the API for an answer it would refuse.
 */
import type { EmissionEvents, EmissionsSnapshot } from '../../../pipeline/contract/emissions.js';
import type { SubnetDetail } from '../../../pipeline/contract/subnet-detail.js';
import type { SubnetHistory } from '../../../pipeline/contract/subnet-history.js';
import type { SubnetList } from '../../../pipeline/contract/subnet-list.js';
import { ApiError, getJson } from './api.js';
import { barChart } from './bar-chart.js';
import { h, replaceChildren } from './dom.js';
import { ALPHA, amount, changePercent, count, number, TAO, utcTime } from './format.js';
import { freshnessLine } from './freshness.js';

const WINDOWS = [7, 30, 90, 365] as const;
const PUBLIC_WINDOWS: readonly number[] = [7, 30];
const DEFAULT_WINDOW = 30;

export async function renderSubnetPage(app: HTMLElement, netuid: number, subscriber: boolean): Promise<void> {
  let detail: SubnetDetail;
  try {
    detail = await getJson<SubnetDetail>(`/api/v1/subnets/${netuid}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      replaceChildren(
        app,
        h(
          'p',
          { class: 'error', role: 'alert' },
          `There is no subnet ${netuid} in the published data. `,
          h('a', { href: '/' }, 'See every subnet'),
          '.',
        ),
      );
      return;
    }
    throw error;
  }
  const row = detail.subnet;
  const heading = document.querySelector('h1');
  if (heading) heading.textContent = `${row.name || 'Subnet'} · netuid ${row.netuid}`;
  document.title = `${row.name || 'Subnet'} (${row.netuid}) · Subnet burn metrics`;

  const chartsBox = h('div', { class: 'charts', 'aria-live': 'polite' });
  const tableBox = h('div', { class: 'history-table' });
  const csvBox = h('p', { class: 'csv' });
  const hint = h('p', { class: 'hint', role: 'status' });
  const buttons = WINDOWS.map((days) => {
    const locked = !subscriber && !PUBLIC_WINDOWS.includes(days);
    const button = h(
      'button',
      {
        type: 'button',
        class: locked ? 'window locked' : 'window',
        'data-days': days,
        'aria-pressed': 'false',
        'aria-disabled': locked ? 'true' : null,
        title: locked ? 'For subscribers' : null,
      },
      `${days} days`,
      locked ? h('span', { class: 'lock' }, ' · subscribers') : null,
    );
    button.addEventListener('click', () => {
      if (locked) {
        hint.textContent = `The ${days}-day window is for subscribers. Subscribers sign in with the one-time link they are sent; 7 and 30 days are open to everyone.`;
        return;
      }
      hint.textContent = '';
      void showWindow(days);
    });
    return button;
  });

  let destroyCharts: (() => void)[] = [];
  async function showWindow(days: number): Promise<void> {
    for (const button of buttons)
      button.setAttribute('aria-pressed', String(button.dataset['days'] === String(days)));
    const history = await getJson<SubnetHistory>(`/api/v1/subnets/${netuid}/history?days=${days}`);
    // A window reaching back before collection began would draw months of empty days and squash the
    // real ones into a corner: the charts and the table start at the first collected day instead.
    const began = history.coverage === 'partial' ? await collectionBegan() : null;
    const since = history.rows.filter((day) => began !== null && day.date >= began);
    const trimmed = began !== null && since.length > 0 && since.length < history.rows.length ? began : null;
    const shown = trimmed ? since : history.rows;
    const subtitle = trimmed ? `From ${trimmed} (UTC), when collection began` : undefined;
    for (const destroy of destroyCharts) destroy();
    const dates = shown.map((day) => day.date);
    const partial = shown.map((day) => day.partial_day);
    const alpha = barChart({
      title: `Alpha burned per UTC day, last ${days} days`,
      subtitle,
      unit: `alpha burned (${ALPHA})`,
      days: dates,
      values: shown.map((day) => day.alpha),
      partial,
      format: (value) => `${number(value)} ${ALPHA}`,
    });
    const tao = barChart({
      title: `TAO value of the alpha burned, at each day's price, last ${days} days`,
      subtitle,
      unit: `TAO value (${TAO})`,
      days: dates,
      values: shown.map((day) => day.tao),
      partial,
      unpriced: shown.map((day) => day.unpriced_burns > 0),
      format: (value) => `${number(value)} ${TAO}`,
    });
    destroyCharts = [alpha.destroy, tao.destroy];
    replaceChildren(
      chartsBox,
      alpha.element,
      tao.element,
      h(
        'p',
        { class: 'note' },
        trimmed
          ? `Collection began ${trimmed} (UTC): the ${count(history.rows.length - shown.length)} days of the ${days}-day window before it have no data and are not drawn. `
          : '',
        `Coverage: ${history.coverage}. The last bar is today (UTC), still partial. A zero means no burn in the index.`,
      ),
    );
    replaceChildren(tableBox, historyTable(shown));
    replaceChildren(
      csvBox,
      subscriber
        ? h(
            'a',
            {
              class: 'button',
              href: `/api/v1/subnets/${netuid}/history.csv?days=${days}`,
              download: `subnet-${netuid}-history-${days}d.csv`,
            },
            `Download CSV (${days} days)`,
          )
        : h('span', { class: 'locked-note' }, 'CSV download: for subscribers.'),
    );
  }

  replaceChildren(
    app,
    freshnessLine(detail),
    h(
      'section',
      { class: 'figures', 'aria-label': 'Burn figures' },
      figure('Burned 24 h', amount(row.alpha_24h, ALPHA), amount(row.tao_24h, TAO)),
      figure('Burned 7 d', amount(row.alpha_7d, ALPHA), amount(row.tao_7d, TAO)),
      figure('Burned 30 d', amount(row.alpha_30d, ALPHA), amount(row.tao_30d, TAO)),
      figure(
        'Change 7 d',
        changePercent(row.change_7d_pct),
        `last burn ${row.last_burn ? utcTime(row.last_burn) : 'none'}`,
      ),
      figure(
        'Pool price',
        row.price_tao === null ? 'not priced' : `${number(row.price_tao)} ${TAO} per ${ALPHA}`,
        `panel ${row.panel_date} (UTC)`,
      ),
    ),
    row.claim
      ? h(
          'p',
          { class: 'claim' },
          'Published claim (dated, not verified revenue): “',
          row.claim.text,
          '” ',
          h('a', { href: row.claim.source, rel: 'noopener noreferrer' }, 'source'),
          row.claim.reviewed ? ` · reviewed ${row.claim.reviewed}` : '',
        )
      : null,
    h('h2', {}, 'Daily burns'),
    h('div', { class: 'windows', role: 'group', 'aria-label': 'History window' }, ...buttons),
    hint,
    chartsBox,
    csvBox,
    h('details', {}, h('summary', {}, 'The days as a table'), tableBox),
    h('h2', {}, 'Emissions'),
    await emissionsSection(netuid),
  );
  await showWindow(DEFAULT_WINDOW);
}

function figure(label: string, value: string, detail: string): HTMLElement {
  return h(
    'div',
    { class: 'figure' },
    h('span', { class: 'label' }, label),
    h('span', { class: 'value' }, value),
    h('span', { class: 'detail' }, detail),
  );
}

/** The first day the collection holds (`trend.collection_began` of the list), asked once; null if unknown. */
let collectionBeganAnswer: Promise<string | null> | null = null;
function collectionBegan(): Promise<string | null> {
  collectionBeganAnswer ??= getJson<SubnetList>('/api/v1/subnets').then(
    (list) => {
      const day = list.trend['collection_began'];
      return typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null;
    },
    (error: unknown) => {
      if (error instanceof ApiError) return null;
      throw error;
    },
  );
  return collectionBeganAnswer;
}

function historyTable(days: SubnetHistory['rows']): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Daily burns table' },
    h(
      'table',
      { class: 'days' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Day (UTC)', `Alpha (${ALPHA})`, `TAO (${TAO})`, 'Burns', 'Unpriced burns', 'Note'].map(
            (label) => h('th', { scope: 'col' }, label),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...days
          .slice()
          .reverse()
          .map((day) =>
            h(
              'tr',
              { 'data-date': day.date },
              h('td', {}, day.date),
              h('td', { class: 'num', 'data-value': day.alpha }, number(day.alpha)),
              h(
                'td',
                { class: 'num', 'data-value': day.tao ?? '' },
                day.tao === null ? 'not priced' : number(day.tao),
              ),
              h('td', { class: 'num' }, count(day.burns)),
              h('td', { class: 'num' }, count(day.unpriced_burns)),
              h('td', {}, day.partial_day ? 'partial day' : ''),
            ),
          ),
      ),
    ),
  );
}

/** The watch's status of this subnet now and its verified events over 7 days (public). */
async function emissionsSection(netuid: number): Promise<HTMLElement> {
  try {
    const [snapshot, events] = await Promise.all([
      getJson<EmissionsSnapshot>('/api/v1/emissions'),
      getJson<EmissionEvents>(`/api/v1/emissions/events?netuid=${netuid}&days=7`),
    ]);
    const row = snapshot.rows.find((r) => r.netuid === netuid);
    const status = row
      ? h(
          'p',
          {},
          'Now: ',
          h(
            'span',
            { class: `status ${row.status === 'flowing' ? 'emitting' : 'suspended'}` },
            row.status === 'flowing' ? 'emitting' : 'suspended',
          ),
          ` at block ${count(snapshot.observed_block ?? 0)} (checked ${utcTime(snapshot.checked_at)}); ${number(row.tao_in_emission)} ${TAO} into the pool in that block.`,
        )
      : h('p', {}, 'The emissions watch does not list this subnet.');
    const list = events.events.length
      ? h(
          'ul',
          { class: 'events' },
          ...events.events.map((event) =>
            h(
              'li',
              {},
              `${event.kind === 'suspended' ? 'Suspended' : 'Restored'} between blocks ${count(event.from_block)} and ${count(event.to_block)}, verified ${utcTime(event.verified_at)}`,
            ),
          ),
        )
      : h('p', {}, 'No suspension or restoration in the last 7 days.');
    return h(
      'section',
      { class: 'emissions' },
      status,
      list,
      h('p', { class: 'note' }, `Watched every five minutes; coverage of the window: ${events.coverage}.`),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return h('p', { class: 'note' }, `Emissions: ${error.detail}`);
  }
}
