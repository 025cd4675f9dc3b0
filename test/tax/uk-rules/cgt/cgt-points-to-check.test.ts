/**
 * `sbm tax cgt` with a buyer's files prints the points to check that combining them produced, worded as the
 * pack's PDF words them, and gives the same list on `--json` (`points_to_check`). An older pack's
 * cgt-input.csv (five columns: no kind, no counterparty) cannot say which rows are its opening and its
 * transfers, so --addresses and --opening are refused on it with one line.
 */
import { describe, expect, it } from 'vitest';
import { CGT_INPUT_HEADER, runWithFiles } from '../../products/own-records/run-cgt-with-files.js';

const PLAIN = 'time_utc,type,asset,quantity,gbp_value,fee';
/** A withdrawal that no chain transfer matches: a point to check. */
const RECORDS = [
  PLAIN,
  '2025-06-01T09:00:00Z,buy,TAO,5,2000,',
  '2025-06-02T12:00:00Z,withdrawal,TAO,5,,',
].join('\n');
const ADDRESS = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

describe('sbm tax cgt: points to check', () => {
  it('prints the points that combining the records produced', async () => {
    const run = await runWithFiles({ records: { 'kraken.csv': RECORDS } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Points to check');
    expect(run.stdout).toContain(
      '- kraken.csv line 3: a withdrawal of 5 TAO on 2025-06-02T12:00Z matches no transfer into the order',
    );
  });

  it('gives the same points on --json', async () => {
    const run = await runWithFiles({ records: { 'kraken.csv': RECORDS }, json: true });
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { points_to_check: string[] };
    expect(json.points_to_check).toHaveLength(1);
    expect(json.points_to_check[0]).toMatch(/^kraken\.csv line 3: a withdrawal of 5 TAO/);
  });

  it('refuses --addresses or --opening with an older five-column cgt-input.csv, in one line', async () => {
    const chain = ['datetime,asset,action,quantity,gbp', `2025-06-01T12:00:00Z,TAO,acquire,5,1500`].join(
      '\n',
    );
    for (const files of [
      { chain, addresses: `address,label\n${ADDRESS},Kraken deposit\n` },
      { chain, opening: 'asset,quantity,cost_gbp\nTAO,1,100\n' },
    ]) {
      const run = await runWithFiles(files);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('has no kind column');
    }
    // --records alone still combines with it.
    expect((await runWithFiles({ chain, records: { 'kraken.csv': RECORDS } })).code).toBe(0);
    // A pack's file with the kind column is taken with --addresses.
    expect(
      (
        await runWithFiles({
          chain: CGT_INPUT_HEADER,
          addresses: `address,label\n${ADDRESS},Kraken deposit\n`,
        })
      ).code,
    ).toBe(0);
  });
});
