import { CHECK_MECHANISM_IDS } from '../../pipeline/contract/tax-check.js';
import { CHECK_MECHANISMS } from '../../pipeline/tax/products/check-mechanisms.js';
import { escapeHtml } from '../web/html-text.js';

/**
 * The order page's word on what the pack does with the mechanisms a history may have run beside plain staking:
 * which it lists in Points to check (each with its day and amount, for the buyer to confirm or correct) and
 * which it books by its method without a point. The same names and sentences as the free check's
 * `mechanisms` (`check-mechanisms.ts`), which says which of them the buyer's coldkey ran.
 */
export function packPointsSection(): string {
  const item = (id: (typeof CHECK_MECHANISM_IDS)[number]) =>
    `<li><strong>${escapeHtml(CHECK_MECHANISMS[id].name)}</strong>: ${escapeHtml(CHECK_MECHANISMS[id].pack)}</li>`;
  const points = CHECK_MECHANISM_IDS.filter((id) => CHECK_MECHANISMS[id].inPack === 'point_to_check');
  const booked = CHECK_MECHANISM_IDS.filter((id) => CHECK_MECHANISMS[id].inPack === 'booked');
  return `<section class="order-pack-points" aria-labelledby="pack-points-title">
<h2 id="pack-points-title">What the pack lists for you to check</h2>
<p>Points to check, each with its day and amount:</p>
<ul class="pack-points-check">
${points.map(item).join('\n')}
<li><strong>A day on which the chain's holdings differ from what the pack booked</strong>: the pack holds every UK day's holdings on the chain against the day before's and what it booked; a difference nothing it reads explains (a lease dividend paid before December 2025 came as TAO with no event) is listed, never absorbed (reconciliation.csv).</li>
</ul>
<p>Booked by the method, without a point (each in the pack's files):</p>
<ul class="pack-points-booked">
${booked.map(item).join('\n')}
</ul>
<p class="hint">The free check on the tax page names which of these your coldkey ran this tax year and the last.</p>
</section>`;
}
