/**
 * The method description served at /api/v1/method (every response's `method_url`). It states what the
 * numbers mean; the README's "Method" section says the same in the same words.
 */
export const METHOD_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Subnet burn metrics: method</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<h1>Method</h1>
<h2>What a burn is, and is not</h2>
<p>A burn is an on-chain action that destroys a subnet's alpha. It does not establish revenue funding,
a preceding market purchase or team attribution. Published claims are dated and are not verified revenue.</p>
<h2>Classification</h2>
<p>Every <code>System.Events</code> record of every block is decoded by event name through the metadata of
that block's own runtime, and stored once, keyed by (block number, event index):</p>
<ul>
<li><b>burn</b>: an <code>SubtensorModule.AlphaBurned</code> event from <code>burn_alpha</code>.</li>
<li><b>buyback</b>: the <code>StakeAdded</code> + <code>AlphaBurned</code> + <code>AddStakeBurn</code> triple of one
<code>add_stake_burn</code> extrinsic, counted once (the alpha burned, keeping the TAO spent).</li>
<li><b>recycle</b>: <code>AlphaRecycled</code> from <code>recycle_alpha</code>. Recycled alpha returns to the
subnet; it is kept for analysts and is never part of a published burn total.</li>
</ul>
<h2>Valuation</h2>
<p>Alpha is valued in TAO at the subnet's pool price <code>SubnetTAO / SubnetAlphaIn</code> read at a UTC day's
panel block (its last block; for the current day, the finalized head when collection ran). Summary TAO totals
use the latest panel price; daily history uses each day's own. Neither is an execution price or a revenue
figure. A missing valuation is <code>null</code>, never 0.</p>
<h2>Windows and numbers</h2>
<ul>
<li><code>as_of</code> is the time of the last block covered by the last complete collection; 24h, 7d and 30d
trail from it. <code>change_7d_pct</code> compares the last 7 days with the 7 before (null when those are 0).</li>
<li>Amounts are computed in RAO (10<sup>-9</sup>) as exact integers and rendered once: alpha exactly, TAO
truncated to the RAO, percentages rounded half away from zero to 2 decimals.</li>
<li>History has one row per UTC day of the window, ending with the <code>as_of</code> day; the current UTC day
is partial (<code>partial_day: true</code>). A zero means no burn in the index; it does not certify complete
historical coverage. History follows the subnet number, which may be reused after deregistration.</li>
</ul>
<h2>Freshness and coverage</h2>
<ul>
<li><code>freshness</code> is <code>current</code> while the last completed collection
(<code>burns_checked_at</code>) is under 26 hours old, <code>stale</code> after, <code>unknown</code> when none
completed. Burn data is collected once a day; it is not a live transaction stream.</li>
<li><code>coverage</code> is <code>complete</code> when every day of a history window was collected, else
<code>partial</code>; <code>trend.collection_began</code> of <code>/api/v1/subnets</code> is the first collected day.</li>
<li>The emissions watch samples finalized emission status every five minutes. A suspension or restoration is
reported only when two consecutive samples at different blocks agree; missed samples are gaps, never
interpolated.</li>
</ul>
</body>
</html>
`;
