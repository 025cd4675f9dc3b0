import { describe, expect, it } from 'vitest';
import { byAssetName } from '../../../../pipeline/tax/uk-rules/cgt/asset-order.js';

describe('the order a pack lists assets in', () => {
  it('reads subnets by number, TAO and the tokens first, and a reused netuid by its registration block', () => {
    const assets = [
      'alpha:100:0',
      'subnet-lock:3:120',
      'alpha:10:0',
      'alpha:2:7200',
      'USDT',
      'alpha:2:0',
      'TAO',
      'alpha:1:0',
      'BTC',
    ];
    expect([...assets].sort(byAssetName)).toEqual([
      'BTC',
      'TAO',
      'USDT',
      'alpha:1:0',
      'alpha:2:0',
      'alpha:2:7200',
      'alpha:10:0',
      'alpha:100:0',
      'subnet-lock:3:120',
    ]);
  });

  it('is text order where no numbers differ, and a name before its longer form', () => {
    expect(['alpha:07:0', 'alpha:7:0'].sort(byAssetName)).toEqual(['alpha:07:0', 'alpha:7:0']);
    expect(byAssetName('alpha:1', 'alpha:1:0')).toBeLessThan(0);
    expect(byAssetName('TAO', 'TAO')).toBe(0);
  });
});
