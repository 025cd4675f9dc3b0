import { randomBytes } from 'node:crypto';
import { encodeAddress, mnemonicGenerate } from '@polkadot/util-crypto';
import { describe, expect, it } from 'vitest';
import {
  BITTENSOR_SS58_PREFIX,
  type ColdkeyParse,
  parseColdkey,
  parseColdkeyQuery,
  SECRET_MESSAGE,
} from '../../../pipeline/tax/products/parse-coldkey.js';

const randomAddress = (prefix = BITTENSOR_SS58_PREFIX) => encodeAddress(randomBytes(32), prefix);
/** The well-known development account `//Alice`. */
const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

function failure(result: ColdkeyParse) {
  if (result.ok) throw new Error(`expected a failure, got ${result.address}`);
  return result;
}

function replaceAt(text: string, index: number, char: string): string {
  return text.slice(0, index) + char + text.slice(index + 1);
}

describe('parseColdkey: valid addresses', () => {
  it('accepts prefix-42 accounts generated from random keys and returns them unchanged', () => {
    for (let i = 0; i < 200; i++) {
      const address = randomAddress();
      expect(parseColdkey(address)).toEqual({ ok: true, address });
    }
    expect(parseColdkey(ALICE)).toEqual({ ok: true, address: ALICE });
  });

  it('ignores surrounding whitespace that copying adds', () => {
    expect(parseColdkey(`  ${ALICE}\n`)).toEqual({ ok: true, address: ALICE });
  });

  it('has no 47-character form: every prefix-42 account takes 48 base58 digits', () => {
    // The payload is 35 bytes: prefix byte 42, the 32-byte account, 2 checksum bytes. Its smallest
    // value, 42 followed by zeros, is already at least 58^47, and its largest is below 58^48.
    expect(42n * 256n ** 34n >= 58n ** 47n).toBe(true);
    expect(43n * 256n ** 34n - 1n < 58n ** 48n).toBe(true);
    expect(encodeAddress(new Uint8Array(32), 42)).toHaveLength(48);
    expect(encodeAddress(new Uint8Array(32).fill(255), 42)).toHaveLength(48);
    const lengths = new Set(Array.from({ length: 2000 }, () => randomAddress().length));
    expect([...lengths]).toEqual([48]);
  });

  it('refuses a 47-character string starting with 5, saying it is not an account', () => {
    const result = failure(parseColdkey(ALICE.slice(0, 47)));
    expect(result.reason).toBe('not-an-account');
    expect(result.message).toMatch(/does not decode to a 32-byte account/);
  });
});

describe('parseColdkey: malformed input', () => {
  it('refuses empty input', () => {
    expect(failure(parseColdkey('')).reason).toBe('empty');
    expect(failure(parseColdkey(' \n ')).reason).toBe('empty');
  });

  it('refuses the wrong length, giving the length it found', () => {
    for (const text of [ALICE.slice(0, 46), `${ALICE}1`, '5Grw']) {
      const result = failure(parseColdkey(text));
      expect(result.reason).toBe('length');
      expect(result.message).toContain(`has ${text.length} characters`);
      expect(result.message).toContain('47 or 48');
    }
    expect(failure(parseColdkey('5Grw')).message).toContain('missing');
  });

  it('refuses an address that does not start with 5', () => {
    const polkadot = randomAddress(0);
    expect(polkadot[0]).toBe('1');
    const result = failure(parseColdkey(polkadot));
    expect(result.reason).toBe('first-character');
    expect(result.message).toBe('coldkey starts with "1"; a Bittensor coldkey address starts with 5.');
    expect(failure(parseColdkey(replaceAt(ALICE, 0, '6'))).reason).toBe('first-character');
  });

  it.each([
    ['0', 'the digit zero'],
    ['O', 'capital letter o'],
    ['I', 'capital letter i'],
    ['l', 'lower-case letter L'],
  ])('names the non-base58 character %s and its position', (char, name) => {
    const result = failure(parseColdkey(replaceAt(ALICE, 9, char)));
    expect(result.reason).toBe('character');
    expect(result.message).toContain(`character 10 is "${char}" (${name})`);
    expect(result.message).toContain('not base58');
  });

  it('names spaces, punctuation and look-alike letters by position too', () => {
    expect(failure(parseColdkey(replaceAt(ALICE, 19, ' '))).message).toContain('character 20 is a space');
    expect(failure(parseColdkey(replaceAt(ALICE, 4, '-'))).message).toContain('character 5 is "-" (U+002D)');
    // A Cyrillic "а" counts as one character, at its position.
    expect(failure(parseColdkey(replaceAt(ALICE, 5, 'а'))).message).toContain('character 6 is "а" (U+0430)');
  });

  it('refuses a bad checksum', () => {
    const last = ALICE.at(-1) === 'Y' ? 'Z' : 'Y';
    for (const text of [replaceAt(ALICE, 47, last), replaceAt(ALICE, 20, ALICE[20] === 'a' ? 'b' : 'a')]) {
      const result = failure(parseColdkey(text));
      expect(result.reason).toBe('checksum');
      expect(result.message).toMatch(/checksum does not match/);
    }
  });

  it("refuses another network's address that also starts with 5, naming its prefix", () => {
    const chainx = randomAddress(44);
    expect(chainx).toMatch(/^5.{47}$/);
    const result = failure(parseColdkey(chainx));
    expect(result.reason).toBe('prefix');
    expect(result.message).toContain('prefix 44');
  });

  it('tells an EVM address apart from a secret', () => {
    const result = failure(parseColdkey(`0x${randomBytes(20).toString('hex')}`));
    expect(result.reason).toBe('evm-address');
  });
});

describe('parseColdkey: secrets', () => {
  const twelve = mnemonicGenerate(12);
  const twentyFour = mnemonicGenerate(24);
  const seed = randomBytes(32).toString('hex');
  const secrets: [string, string][] = [
    ['a 12-word seed phrase', twelve],
    ['a 24-word seed phrase', twentyFour],
    ['a seed phrase with a derivation path', `${twelve}//hard/soft///password`],
    ['a seed phrase on several lines, comma separated', twelve.split(' ').join(',\n')],
    ['a 64-hex seed', seed],
    ['a 64-hex seed with 0x', `0x${seed}`],
    ['a 0x secret key', `0x${randomBytes(64).toString('hex')}`],
    ['a 0x compressed key', `0x${randomBytes(33).toString('hex')}`],
    ['an upper-case hex seed', seed.toUpperCase()],
  ];

  it.each(secrets)('warns about %s without quoting it', (_, secret) => {
    const result = failure(parseColdkey(secret));
    expect(result.reason).toBe('secret');
    expect(result.message).toBe(SECRET_MESSAGE);
    expect(result.message).toMatch(/Never paste a secret/);
    // One fixed text for every secret: nothing of the input can be in it.
    expect(result.message).not.toContain(secret);
  });

  it('gives the same warning when the phrase arrives form-encoded in a query string', () => {
    const query = new URLSearchParams(`coldkey=${twelve.split(' ').join('+')}`);
    expect(failure(parseColdkeyQuery(query)).reason).toBe('secret');
  });
});

describe('parseColdkeyQuery', () => {
  it('reads exactly one coldkey parameter', () => {
    expect(parseColdkeyQuery(new URLSearchParams({ coldkey: ALICE }))).toEqual({ ok: true, address: ALICE });
    expect(parseColdkeyQuery(new URLSearchParams(`coldkey=%20${ALICE}%0A`))).toEqual({
      ok: true,
      address: ALICE,
    });
  });

  it('refuses a missing, empty or repeated parameter', () => {
    expect(failure(parseColdkeyQuery(new URLSearchParams('other=1'))).reason).toBe('missing');
    expect(failure(parseColdkeyQuery(new URLSearchParams('coldkey='))).reason).toBe('empty');
    const twice = failure(parseColdkeyQuery(new URLSearchParams(`coldkey=${ALICE}&coldkey=${ALICE}`)));
    expect(twice).toEqual({
      ok: false,
      reason: 'repeated',
      message: 'coldkey was given 2 times; send it once.',
    });
  });

  it('warns about a secret in any of several values', () => {
    const query = new URLSearchParams();
    query.append('coldkey', ALICE);
    query.append('coldkey', `0x${randomBytes(32).toString('hex')}`);
    expect(failure(parseColdkeyQuery(query))).toEqual({
      ok: false,
      reason: 'secret',
      message: SECRET_MESSAGE,
    });
  });
});
