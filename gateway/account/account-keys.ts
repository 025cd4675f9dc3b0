import { DAY_MS } from '../../pipeline/time/utc-day.js';
import { accountPeriod, paidPeriodCovers } from '../auth/accounts.js';
import { generateApiKey, lastFour } from '../auth/api-key-format.js';
import { keyStatus, MAX_ACTIVE_KEYS } from '../auth/api-keys.js';
import type { AuthDeps } from '../auth/auth-deps.js';
import type { BillingPeriod } from '../auth/billing-period.js';
import { newId } from '../auth/random-id.js';
import { HttpError } from '../http/http-errors.js';
import type { Mailer } from '../orders/mailer.js';
import type { KeyEventKind } from '../state/billing-state.js';
import type { Account, ApiKeyRecord } from '../state/gateway-state.js';

/** Grace periods a roll offers: the old key keeps working this long, then stops. */
export const ROLL_GRACE_SECONDS = [0, 3600, 86_400] as const;
export type RollGrace = (typeof ROLL_GRACE_SECONDS)[number];

export interface AccountKeyDeps extends AuthDeps {
  /** Key events are emailed to the account holder; null: recorded and shown only. */
  mailer: Mailer | null;
}

export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
}

const NAME_MAX = 60;

export function keyName(raw: string | undefined): string {
  const name = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (name.length === 0) return 'Unnamed key';
  return name.slice(0, NAME_MAX);
}

async function issue(
  deps: AccountKeyDeps,
  account: Account,
  name: string,
  maxActive: number,
): Promise<IssuedKey> {
  const now = deps.now();
  const generated = generateApiKey();
  const result = await deps.state.insertKeyWithinLimit(
    {
      id: newId('key'),
      accountId: account.id,
      prefix: generated.prefix,
      hash: generated.hash,
      createdAt: now,
      revokedAt: null,
      expiresAt: null,
    },
    maxActive,
    now,
  );
  if (!result.inserted) {
    throw new HttpError(
      409,
      `This account already has ${MAX_ACTIVE_KEYS} active keys, the most the plan allows; revoke one first.`,
    );
  }
  await deps.state.billing.putKeyDetails({
    keyId: result.key.id,
    name,
    lastFour: lastFour(generated.key),
    graceEndsAt: null,
    lastUsedAt: null,
  });
  return { key: generated.key, record: result.key };
}

/** "Create key": at most 3 active keys (a fourth: 409); the secret is returned once. */
export async function createAccountKey(
  deps: AccountKeyDeps,
  account: Account,
  rawName: string | undefined,
  ip: string,
): Promise<IssuedKey> {
  const issued = await issue(deps, account, keyName(rawName), MAX_ACTIVE_KEYS);
  await recordEvent(deps, account, issued.record, 'created', ip);
  return issued;
}

async function ownKey(deps: AccountKeyDeps, account: Account, keyId: string): Promise<ApiKeyRecord> {
  const key = await deps.state.getKey(keyId);
  if (!key || key.accountId !== account.id) throw new HttpError(404, 'No such key on this account.');
  return key;
}

/** "Revoke": at once, on every gateway instance (the state is read on every keyed request). */
export async function revokeAccountKey(
  deps: AccountKeyDeps,
  account: Account,
  keyId: string,
  ip: string,
): Promise<void> {
  const key = await ownKey(deps, account, keyId);
  if (keyStatus(key, deps.now()) !== 'active') throw new HttpError(409, 'This key is not active.');
  await deps.state.revokeKey(key.id, deps.now());
  await recordEvent(deps, account, key, 'revoked', ip);
}

/**
 * "Roll": a new secret under the same name; the old key works for the grace the holder picked, then
 * stops (none: revoked now). During the grace both count as active, so the roll may hold a fourth.
 */
export async function rollAccountKey(
  deps: AccountKeyDeps,
  account: Account,
  keyId: string,
  grace: RollGrace,
  ip: string,
): Promise<IssuedKey> {
  const key = await ownKey(deps, account, keyId);
  const now = deps.now();
  if (keyStatus(key, now) !== 'active') throw new HttpError(409, 'Only an active key can be rolled.');
  const details = (await deps.state.billing.listKeyDetails(account.id)).find((d) => d.keyId === key.id);
  if (grace === 0) await deps.state.revokeKey(key.id, now);
  const issued = await issue(
    deps,
    account,
    details?.name ?? 'Unnamed key',
    grace === 0 ? MAX_ACTIVE_KEYS : MAX_ACTIVE_KEYS + 1,
  );
  if (grace > 0) await deps.state.billing.expireKeyAt(key.id, new Date(now.getTime() + grace * 1000));
  await recordEvent(deps, account, key, 'rolled', ip);
  await recordEvent(deps, account, issued.record, 'created', ip);
  return issued;
}

async function recordEvent(
  deps: AccountKeyDeps,
  account: Account,
  key: ApiKeyRecord,
  kind: KeyEventKind,
  ip: string,
): Promise<void> {
  const at = deps.now();
  const id = newId('kev');
  await deps.state.billing.insertKeyEvent({
    id,
    accountId: account.id,
    keyId: key.id,
    kind,
    keyPrefix: key.prefix,
    ip,
    at,
  });
  if (deps.mailer && account.email) {
    await deps.mailer.send({
      key: `key-event-${id}`,
      to: account.email,
      subject: `API key ${kind}: ${key.prefix}…`,
      text: [
        `An API key of your Subnet burn metrics account was ${kind}:`,
        '',
        `  key      ${key.prefix}…`,
        `  when     ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        `  from     ${ip}`,
        '',
        'If this was not you, sign in at the account page, revoke the key and choose "Sign out everywhere".',
      ].join('\n'),
    });
  }
}

export interface KeyUsageSummary {
  id: string;
  name: string;
  prefix: string;
  lastFour: string;
  status: 'active' | 'revoked' | 'expired';
  createdAt: Date;
  lastUsedAt: Date | null;
  /** When a rolled key stops working. */
  graceEndsAt: Date | null;
  /** Successful requests this period (by UTC day from the period's first day). */
  used: number;
}

export interface UsageSummary {
  limit: number;
  used: number;
  remaining: number;
  /** Null: a Stripe-billed account with no paid period yet. */
  period: BillingPeriod | null;
  /** Whether keys work now (false: 402 until an invoice is paid). */
  paid: boolean;
  days: { day: string; used: number }[];
  keys: KeyUsageSummary[];
}

/** The account's standing: the allowance's counter for the period, by day and by key. Reads only. */
export async function usageSummary(deps: AuthDeps, account: Account, limit: number): Promise<UsageSummary> {
  const now = deps.now();
  const hasPeriod = account.billing === 'operator' || account.paidPeriodEnd !== null;
  const period = hasPeriod ? accountPeriod(account, now) : null;
  // What was used, not what is reserved: an open allowance lease's unspent units are not shown as used.
  const used = !period
    ? 0
    : deps.allowance
      ? await deps.allowance.used(account.id, period)
      : await deps.state.getSettledUsage(account.id, period.start, now);
  const fromDay = (period?.start ?? now).toISOString().slice(0, 10);
  // This instance's counted uses first, so what it shows includes every request it answered.
  await deps.keyUse?.flush();
  const rows = period ? await deps.state.billing.keyUsage(account.id, fromDay) : [];
  const byDay = new Map<string, number>();
  const byKey = new Map<string, number>();
  for (const row of rows) {
    byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.used);
    byKey.set(row.keyId, (byKey.get(row.keyId) ?? 0) + row.used);
  }
  const days: { day: string; used: number }[] = [];
  if (period) {
    const last = new Date(Math.min(now.getTime(), period.end.getTime() - 1));
    for (let d = new Date(`${fromDay}T00:00:00Z`); d <= last; d = new Date(d.getTime() + DAY_MS)) {
      const day = d.toISOString().slice(0, 10);
      days.push({ day, used: byDay.get(day) ?? 0 });
    }
  }
  const details = new Map((await deps.state.billing.listKeyDetails(account.id)).map((d) => [d.keyId, d]));
  const keys = (await deps.state.listKeys(account.id)).map((key): KeyUsageSummary => {
    const detail = details.get(key.id);
    return {
      id: key.id,
      name: detail?.name ?? 'Key made by the operator',
      prefix: key.prefix,
      lastFour: detail?.lastFour ?? '',
      status: keyStatus(key, now),
      createdAt: key.createdAt,
      lastUsedAt: detail?.lastUsedAt ?? null,
      graceEndsAt: key.expiresAt && key.expiresAt > now ? key.expiresAt : null,
      used: byKey.get(key.id) ?? 0,
    };
  });
  return {
    limit,
    used,
    remaining: Math.max(0, limit - used),
    period,
    paid: paidPeriodCovers(account, now),
    days,
    keys,
  };
}
