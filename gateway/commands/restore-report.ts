import type { GatewayState } from '../state/gateway-state.js';

export interface RestoreReport {
  /** The newest time the state records (an order, account, key or key event): about when its backup was made. */
  restore_point: string | null;
  /** Accounts that are not cancelled: each may hold a key or session issued after the restore point. */
  accounts: { id: string; plan: string; active_keys: number; newest_key_at: string | null }[];
}

/**
 * What `orders reconcile --after-restore` tells the operator about credentials. Keys and sessions live
 * only in the state (hashed), so those issued after the backup cannot be listed from anything that
 * survived; what can be said is from when the state dates, and which accounts to reissue for. Ids and
 * times only: no email, no key, no hash.
 */
export async function restoreReport(state: GatewayState): Promise<RestoreReport> {
  let newest = 0;
  const seen = (date: Date | null | undefined) => {
    if (date && date.getTime() > newest) newest = date.getTime();
  };
  for (const order of await state.orders.listOrders()) {
    for (const at of [order.createdAt, order.paidAt, order.fulfilledAt, order.emailedAt]) seen(at);
  }
  const accounts: RestoreReport['accounts'] = [];
  for (const account of await state.listAccounts()) {
    seen(account.createdAt);
    const keys = await state.listKeys(account.id);
    for (const key of keys) {
      seen(key.createdAt);
      seen(key.revokedAt);
    }
    for (const event of await state.billing.listKeyEvents(account.id, 1)) seen(event.at);
    if (account.status === 'cancelled') continue;
    const newestKey = keys.reduce<Date | null>(
      (latest, key) => (!latest || key.createdAt > latest ? key.createdAt : latest),
      null,
    );
    accounts.push({
      id: account.id,
      plan: account.plan,
      active_keys: keys.filter((key) => !key.revokedAt).length,
      newest_key_at: newestKey ? newestKey.toISOString() : null,
    });
  }
  return { restore_point: newest > 0 ? new Date(newest).toISOString() : null, accounts };
}

export function restoreLines(report: RestoreReport): string[] {
  const since = report.restore_point ?? 'the start';
  return [
    `the state's newest record is from ${since}: keys and sessions issued after ${since} are not in this state. ` +
      'Reissue them: API plan holders sign in at /account and create a key; for an operator-made one run ' +
      '`sbm-gateway keys create --account ID` (a session: `sbm-gateway sessions create --account ID`).',
    ...report.accounts.map(
      (a) =>
        `  account ${a.id} (${a.plan}): ${a.active_keys} active key${a.active_keys === 1 ? '' : 's'} in the state` +
        (a.newest_key_at ? `, newest made ${a.newest_key_at}` : ''),
    ),
  ];
}
