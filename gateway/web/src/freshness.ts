import type { Envelope } from '../../../pipeline/contract/envelope.js';
import { h } from './dom.js';
import { utcTime } from './format.js';

/** "Data as of …, checked …", with a warning when the API says the data is stale or unknown. */
export function freshnessLine(envelope: Envelope): HTMLElement {
  const line = h(
    'p',
    { class: `freshness ${envelope.freshness}`, 'data-freshness': envelope.freshness },
    `Data as of ${utcTime(envelope.as_of)}, checked ${utcTime(envelope.burns_checked_at)}. `,
    'Collected once a day; the current UTC day is partial.',
  );
  if (envelope.freshness === 'stale') {
    line.prepend(
      h('strong', { class: 'warning', role: 'status' }, 'Stale: the last collection is over 26 hours old. '),
    );
  } else if (envelope.freshness === 'unknown') {
    line.prepend(h('strong', { class: 'warning', role: 'status' }, 'No collection has completed yet. '));
  }
  return line;
}
