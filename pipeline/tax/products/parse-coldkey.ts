import { base58Decode, checkAddressChecksum, encodeAddress } from '@polkadot/util-crypto';

/**
 * The `coldkey` input of the tax check (anything else answers 400): a Bittensor account's public SS58
 * address.
 *
 * Only SS58 prefix 42 is accepted. Bittensor encodes its accounts with the generic Substrate prefix 42
 * (that is what its wallets, explorers and events show), and those addresses are the 48-character
 * ones starting with 5. A few other networks' prefixes (41 Polimec, 44 ChainX, 45 UniArts, 48 to 50)
 * also produce 48 characters starting with 5: such an address names the same key, but it was copied
 * from another network's wallet, and re-encoding it silently would hide that mistake and give the
 * buyer a report whose address matches nothing they see on Bittensor. So we refuse it and say why.
 *
 * The spec also allows 47 characters. No 32-byte account encodes to 47 characters starting with 5
 * under any prefix (with prefix 42 the smallest payload already needs 48 base58 digits; the test
 * shows the arithmetic), so the length rule admits 47 and decoding then refuses it with the reason.
 *
 * Nothing here logs or keeps the input; a failure's message never quotes an input that looks like a
 * secret (it quotes at most one character of an input that does not).
 */

export const BITTENSOR_SS58_PREFIX = 42;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Prefix byte + 32-byte account + 2 checksum bytes. */
const ACCOUNT_PAYLOAD_BYTES = 35;

export type ColdkeyFailureReason =
  | 'missing'
  | 'repeated'
  | 'empty'
  | 'secret'
  | 'evm-address'
  | 'character'
  | 'length'
  | 'first-character'
  | 'not-an-account'
  | 'checksum'
  | 'prefix';

export type ColdkeyParse =
  | { ok: true; address: string }
  | { ok: false; reason: ColdkeyFailureReason; message: string };

export const SECRET_MESSAGE =
  'This looks like a secret (a seed phrase, seed or private key), not an address. Never paste a ' +
  'secret into any website or tool: whoever has it controls the funds. It was not stored; if it is ' +
  'a real one, move the funds to a new wallet. The check needs the public coldkey address: 48 ' +
  'characters starting with 5.';

/**
 * Parses one `coldkey` value. Surrounding whitespace is ignored (copying from a wallet often adds a
 * newline); anything else that is not exactly a prefix-42 SS58 account address is a failure whose
 * `message` says what is wrong. On success `address` is the canonical encoding (the same text: an
 * SS58 string has one encoding per payload, re-encoded here so the invariant is checked, not assumed).
 */
export function parseColdkey(raw: string): ColdkeyParse {
  const text = raw.trim();
  if (text === '')
    return fail(
      'empty',
      'coldkey is empty; send the public coldkey address (48 characters starting with 5).',
    );
  // Before anything that quotes the input: a secret is never echoed, not even one character of it.
  if (looksLikeSecret(text)) return fail('secret', SECRET_MESSAGE);
  if (/^0x[0-9a-f]{40}$/i.test(text)) {
    return fail(
      'evm-address',
      'coldkey is an EVM (0x) address; the check needs the SS58 coldkey address, 48 characters starting with 5.',
    );
  }
  const chars = Array.from(text);
  const bad = chars.findIndex((char) => !BASE58_ALPHABET.includes(char));
  if (bad >= 0) {
    return fail(
      'character',
      `coldkey character ${bad + 1} is ${describeCharacter(chars[bad]!)}, which is not base58 ` +
        '(base58 has no 0, O, I or l, no spaces and no punctuation); check for a mistyped or misread character.',
    );
  }
  if (chars.length !== 47 && chars.length !== 48) {
    return fail(
      'length',
      `coldkey has ${chars.length} characters; a coldkey address has 47 or 48 base58 characters and starts with 5` +
        (chars.length < 47 ? ' (part of it may be missing).' : '.'),
    );
  }
  if (text[0] !== '5') {
    return fail(
      'first-character',
      `coldkey starts with "${text[0]}"; a Bittensor coldkey address starts with 5.`,
    );
  }
  return decodeAccount(text);
}

/**
 * The `coldkey` of a query string: exactly one parameter. A repeated parameter is refused rather than
 * resolved (first or last wins would differ between proxies, caches and us); if any of the values
 * looks like a secret the answer is the secret warning, so that advice is never lost.
 */
export function parseColdkeyQuery(params: URLSearchParams): ColdkeyParse {
  const values = params.getAll('coldkey');
  if (values.length === 0) {
    return fail(
      'missing',
      'coldkey is required: add ?coldkey= and the public coldkey address (48 characters starting with 5).',
    );
  }
  if (values.length > 1) {
    if (values.some((value) => looksLikeSecret(value.trim()))) return fail('secret', SECRET_MESSAGE);
    return fail('repeated', `coldkey was given ${values.length} times; send it once.`);
  }
  return parseColdkey(values[0]!);
}

function decodeAccount(text: string): ColdkeyParse {
  const decoded = base58Decode(text);
  if (decoded.length !== ACCOUNT_PAYLOAD_BYTES) {
    return fail(
      'not-an-account',
      'coldkey is not a valid address: it does not decode to a 32-byte account; check that no character is missing or added.',
    );
  }
  const [valid, , prefixBytes, prefix] = checkAddressChecksum(decoded);
  if (!valid || prefixBytes !== 1) {
    return fail(
      'checksum',
      'coldkey is not a valid address: its SS58 checksum does not match, so a character is wrong; copy the address again from the wallet.',
    );
  }
  if (prefix !== BITTENSOR_SS58_PREFIX) {
    return fail(
      'prefix',
      `coldkey is an address for SS58 network prefix ${prefix}, not Bittensor's ${BITTENSOR_SS58_PREFIX}; ` +
        'copy the address a Bittensor wallet shows for this coldkey.',
    );
  }
  const address = encodeAddress(decoded.subarray(1, 33), BITTENSOR_SS58_PREFIX);
  return { ok: true, address };
}

/**
 * A seed phrase (12 or more words of letters, maybe with a `//derivation` or `///password` on the end),
 * a 32-byte hex seed or longer hex secret with or without `0x`, or any other `0x` hex key (a public
 * key and a seed look the same in hex, so both are treated as secrets; only the 20-byte EVM address is
 * told apart, by the caller).
 */
export function looksLikeSecret(text: string): boolean {
  const words = text.split(/[\s,]+/).filter((word) => word !== '');
  if (words.length >= 12) {
    const last = words.at(-1)!.split('/')[0]!;
    const phrase = [...words.slice(0, -1), last];
    if (phrase.every((word) => /^\p{L}+$/u.test(word))) return true;
  }
  if (/^(0x)?[0-9a-f]{64,}$/i.test(text)) return true;
  return /^0x[0-9a-f]+$/i.test(text) && !/^0x[0-9a-f]{40}$/i.test(text);
}

const NAMED_CHARACTERS: Record<string, string> = {
  '0': '"0" (the digit zero)',
  O: '"O" (capital letter o)',
  I: '"I" (capital letter i)',
  l: '"l" (lower-case letter L)',
  ' ': 'a space',
  '\t': 'a tab',
  '\n': 'a line break',
  '\r': 'a line break',
};

function describeCharacter(char: string): string {
  const named = NAMED_CHARACTERS[char];
  if (named) return named;
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char) ? `${JSON.stringify(char)} (${code})` : code;
}

function fail(reason: ColdkeyFailureReason, message: string): ColdkeyParse {
  return { ok: false, reason, message };
}
