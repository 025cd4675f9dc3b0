/** Typed failures of account, key and session management; each message is one line for the operator. */
export class UnknownAccountError extends Error {
  override name = 'UnknownAccountError';
  constructor(readonly accountId: string) {
    super(`unknown account ${accountId}`);
  }
}

export class ActiveKeyLimitError extends Error {
  override name = 'ActiveKeyLimitError';
  constructor(
    readonly accountId: string,
    readonly maxActive: number,
  ) {
    super(
      `account ${accountId} already has ${maxActive} active keys (the most a plan allows); ` +
        'revoke one with `keys revoke KEY_ID` before creating another',
    );
  }
}

export class UnknownKeyError extends Error {
  override name = 'UnknownKeyError';
  constructor(readonly keyId: string) {
    super(`unknown key ${keyId}`);
  }
}

export class UnknownSessionError extends Error {
  override name = 'UnknownSessionError';
  constructor(readonly sessionId: string) {
    super(`unknown session ${sessionId}`);
  }
}

/** Sessions are the subscriber plan's browser access; API accounts use keys (which are metered). */
export class PlanMismatchError extends Error {
  override name = 'PlanMismatchError';
}

/** The account's paid period has ended after a cancellation; nothing new may be issued for it. */
export class AccountInactiveError extends Error {
  override name = 'AccountInactiveError';
  constructor(readonly accountId: string) {
    super(`account ${accountId} is cancelled and its paid period has ended`);
  }
}
