/**
 * `/tax`: paste a coldkey, see the free check (`GET /tax/check.json`), and buy the tax year's pack
 * (`POST /tax/checkout`, which answers with the hosted checkout page to go to). Every refusal shows
 * the API's own words (a malformed address says what is wrong with it; 429 and 503 say when to retry).
 */
import type { CheckoutSession } from '../../../pipeline/contract/checkout.js';
import type { TaxCheck } from '../../../pipeline/contract/tax-check.js';
import { ApiError, getJson, postJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { amount, count, fraction, gbp, TAO, utcTime } from './format.js';

export function renderTaxPage(app: HTMLElement): void {
  const input = h('input', {
    id: 'coldkey',
    name: 'coldkey',
    type: 'text',
    inputmode: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    placeholder: '5…',
    'aria-describedby': 'coldkey-help',
  });
  const submit = h('button', { type: 'submit' }, 'Check');
  const form = h(
    'form',
    { class: 'tax-form', novalidate: true },
    h('label', { for: 'coldkey' }, 'Coldkey (a public address starting with 5)'),
    h('div', { class: 'row' }, input, submit),
    h(
      'p',
      { id: 'coldkey-help', class: 'help' },
      'Only ever paste a public address. Never a seed phrase or a private key.',
    ),
  );
  const result = h('div', { class: 'tax-result', 'aria-live': 'polite' });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void check(input.value.trim());
  });

  async function check(coldkey: string): Promise<void> {
    submit.disabled = true;
    replaceChildren(result, h('p', { class: 'loading' }, 'Reading the chain…'));
    try {
      const answer = await getJson<TaxCheck>(`/tax/check.json?coldkey=${encodeURIComponent(coldkey)}`);
      replaceChildren(result, ...figures(answer));
    } catch (error) {
      replaceChildren(result, errorLine(error, 'check'));
    } finally {
      submit.disabled = false;
    }
  }

  replaceChildren(
    app,
    h(
      'p',
      { class: 'disclaimer' },
      h('strong', {}, 'Not tax advice.'),
      ' A computation tool: an estimate from chain data and published prices that knows nothing of your circumstances, other income or allowances.',
    ),
    form,
    result,
  );
}

function figures(answer: TaxCheck): HTMLElement[] {
  const rows: [string, string][] = [
    ['Tax year (UK)', answer.tax_year],
    ['Staked', `${amount(answer.staked_tao, TAO)} (${gbp(answer.staked_gbp)})`],
    ['of which root', amount(answer.root_tao, TAO)],
    ['of which alpha, valued at pool prices', amount(answer.alpha_as_tao, TAO)],
    ['Unstaked (free)', amount(answer.free_tao, TAO)],
    ['Staking events this tax year', count(answer.events)],
    [
      'Yield (annual, simple)',
      `${fraction(answer.yield)} (root ${fraction(answer.yield_root)}, alpha ${fraction(answer.yield_alpha)})`,
    ],
    [
      'Estimated staking income so far',
      `${amount(answer.income_tao, TAO)} = ${gbp(answer.income_gbp)}, ${answer.income_window.from} to ${answer.income_window.to}`,
    ],
    ['Tax at 40% (higher rate)', gbp(answer.tax40)],
    ['Tax at 42% (Scotland, higher)', gbp(answer.tax42)],
    ['Tax at 45% (additional; Scotland, advanced)', gbp(answer.tax45)],
    ['Tax at 48% (Scotland, top)', gbp(answer.tax48)],
    [
      'TAO price used',
      `${gbp(answer.tao_gbp)} (US$${answer.tao_usd.toLocaleString(navigator.language, { maximumFractionDigits: 2 })}), ` +
        `quoted ${utcTime(answer.tao_gbp_at)}`,
    ],
  ];
  const list = h('dl', { class: 'check', 'data-state': answer.state });
  for (const [label, value] of rows) list.append(h('dt', {}, label), h('dd', {}, value));
  const heading = h('h2', {}, answer.state === 'empty' ? 'This address holds nothing' : 'The estimate');
  const sources = h('p', { class: 'note' }, method(answer));
  return [
    heading,
    h('p', { class: 'coldkey' }, answer.coldkey),
    list,
    sources,
    mechanismsSection(answer),
    buyBox(answer),
  ];
}

type Mechanism = TaxCheck['mechanisms'][number];

/**
 * What the coldkey's history ran beside plain staking (this tax year and the last, from the events the pack
 * reads), each with what the pack does with it: a point to check, or booked by the method.
 */
function mechanismsSection(answer: TaxCheck): HTMLElement {
  const window = `${answer.mechanism_window.from} to ${answer.mechanism_window.to}`;
  const section = h(
    'section',
    { class: 'mechanisms', 'aria-labelledby': 'mechanisms-title' },
    h('h2', { id: 'mechanisms-title' }, 'What this history ran, and what the pack does with it'),
  );
  if (answer.mechanisms.length === 0) {
    section.append(
      h(
        'p',
        {},
        `Nothing beside plain staking (stakes, unstakes, moves and their income) in this coldkey's collected events from ${window}.`,
      ),
    );
  }
  const years = [...new Set(answer.mechanisms.map((m) => m.tax_year))];
  for (const year of years) {
    const list = h('ul', { class: 'mechanism-list' });
    for (const m of answer.mechanisms.filter((x) => x.tax_year === year)) list.append(mechanismItem(m));
    section.append(h('h3', {}, `Tax year ${year}`), list);
  }
  section.append(
    h(
      'p',
      { class: 'note' },
      `Read from the events this service collected for the coldkey from ${window}: the events the pack reads. ` +
        'What moved with no event (a lease dividend before December 2025 was paid as TAO with none) is not listed here: ' +
        "the pack's daily reconciliation with the chain shows it as an unexplained difference, with its day and amount, in Points to check.",
    ),
  );
  return section;
}

function mechanismItem(m: Mechanism): HTMLElement {
  const times =
    m.count === 1 ? `once, ${m.first_day}` : `${count(m.count)} times, ${m.first_day} to ${m.last_day}`;
  return h(
    'li',
    { 'data-mechanism': m.mechanism, 'data-in-pack': m.in_pack },
    h('strong', {}, m.name),
    ` (${times}). `,
    h(
      'span',
      { class: `in-pack ${m.in_pack}` },
      m.in_pack === 'point_to_check' ? 'Point to check' : 'Booked by the method',
    ),
    `: ${m.pack}`,
  );
}

/** What the estimate measured and how, in words: the same facts as the answer's fields. */
function method(answer: TaxCheck): string {
  const yearStart = `${answer.tax_year.slice(0, 4)}-04-06`;
  const window = answer.income_window;
  const from =
    window.from > yearStart
      ? `The service's record of the chain starts later than 6 April, so the year is extrapolated from that start: income is counted from ${window.from} to today (${window.to}), not from 6 April.`
      : `Income is counted from 6 April (${window.from}) to today (${window.to}).`;
  return (
    `${from} It is an estimate at the current price: today's stake as if held over those days at today's yield ` +
    `(measured over ${answer.yield_window.from} to ${answer.yield_window.to}; ${answer.yield_source}, alpha: ${answer.alpha_yield_source}), ` +
    `valued at the TAO/GBP rate quoted ${utcTime(answer.tao_gbp_at)}. ` +
    "The pack's day-by-day ledger gives the income actually received, each day at that day's rate."
  );
}

/** The tax year's pack for this coldkey: the checkout route names the hosted payment page to go to. */
function buyBox(answer: TaxCheck): HTMLElement {
  const sku = `uk-${answer.tax_year.replace('/', '-')}`;
  const button = h('button', { type: 'button', class: 'buy' }, `Buy the ${answer.tax_year} pack`);
  const message = h('p', { class: 'buy-message', 'aria-live': 'polite' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    message.textContent = 'Starting the checkout…';
    try {
      const session = await postJson<CheckoutSession>('/tax/checkout', { sku, coldkeys: [answer.coldkey] });
      window.location.assign(session.checkout_url);
    } catch (error) {
      replaceChildren(message, errorLine(error, 'checkout'));
      button.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'buy-box' },
    h(
      'p',
      {},
      'The pack: a PDF and CSV ledgers of every staking event, day by day, for this tax year. Not tax advice either.',
    ),
    h('p', { class: 'pack-points' }, packPoints(answer)),
    button,
    message,
  );
}

/** For the year on sale: what the pack will list as points to check, and what it books without one. */
function packPoints(answer: TaxCheck): string {
  const year = answer.mechanisms.filter((m) => m.tax_year === answer.tax_year);
  const names = (side: Mechanism['in_pack']) =>
    year
      .filter((m) => m.in_pack === side)
      .map((m) => m.name.charAt(0).toLowerCase() + m.name.slice(1))
      .join('; ');
  const points = names('point_to_check');
  const booked = names('booked');
  return (
    `For ${answer.tax_year} the pack will list as points to check: ${points || 'none of the mechanisms found so far'}` +
    ", and any day on which the chain's holdings differ from what it booked (its daily reconciliation). " +
    (booked ? `It books by its method, without a point: ${booked}.` : '')
  ).trim();
}

function errorLine(error: unknown, what: 'check' | 'checkout'): HTMLElement {
  if (error instanceof ApiError) {
    const prefix =
      error.status === 400
        ? what === 'check'
          ? 'That address cannot be checked: '
          : 'The checkout was refused: '
        : error.status === 429
          ? 'Too many requests from this network: '
          : error.status >= 500
            ? what === 'check'
              ? 'The check is unavailable right now: '
              : 'Buying is unavailable right now: '
            : '';
    return h('p', { class: 'error', role: 'alert', 'data-status': error.status }, prefix, error.detail);
  }
  return h(
    'p',
    { class: 'error', role: 'alert' },
    'The request did not reach the server. Check the connection and try again.',
  );
}
