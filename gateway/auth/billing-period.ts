/**
 * Billing periods run by calendar month from the account's anchor (the start of its first paid
 * period): an anchor of 15 March 10:00 UTC gives 15 Mar–15 Apr, 15 Apr–15 May, and so on. When the
 * anchor's day does not exist in a month it is clamped to that month's last day (an anchor on the
 * 31st renews on 30 April and 28/29 February), but every period is counted from the anchor itself,
 * so the day returns to the 31st where it exists. All arithmetic is in UTC.
 */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

export function addMonthsClamped(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The latest period computed per anchor (ms): every keyed request asks, and it changes monthly. */
const latest = new Map<number, BillingPeriod>();
/** A bound on the memo all the same, since it lives as long as the process. */
const MAX_REMEMBERED_ANCHORS = 10_000;

/** The period containing `now`; before the anchor (clock skew) it is the first period. */
export function billingPeriod(anchor: Date, now: Date): BillingPeriod {
  const nowMs = now.getTime();
  const known = latest.get(anchor.getTime());
  if (known && known.start.getTime() <= nowMs && nowMs < known.end.getTime()) return known;
  let months =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (months < 0) months = 0;
  if (months > 0 && addMonthsClamped(anchor, months) > now) months -= 1;
  const period: BillingPeriod = Object.freeze({
    start: addMonthsClamped(anchor, months),
    end: addMonthsClamped(anchor, months + 1),
  });
  if (latest.size >= MAX_REMEMBERED_ANCHORS) latest.clear();
  latest.set(anchor.getTime(), period);
  return period;
}

export function periodSeconds(period: BillingPeriod): number {
  return Math.round((period.end.getTime() - period.start.getTime()) / 1000);
}
