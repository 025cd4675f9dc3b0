import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../../gateway/config.js';
import { openGatewayState } from '../../../gateway/state/open-gateway-state.js';
import { StateUrlError } from '../../../gateway/state/state-errors.js';
import { parseStateUrl } from '../../../gateway/state/state-url.js';
import { ConfigError } from '../../../pipeline/config.js';

describe('SBM_STATE_URL', () => {
  it('accepts relative and absolute sqlite paths and postgres URLs', () => {
    expect(parseStateUrl('sqlite:./data/gateway.sqlite', '/srv/sbm')).toEqual({
      engine: 'sqlite',
      path: '/srv/sbm/data/gateway.sqlite',
    });
    expect(parseStateUrl('sqlite:data/g.sqlite', '/srv/sbm')).toEqual({
      engine: 'sqlite',
      path: '/srv/sbm/data/g.sqlite',
    });
    expect(parseStateUrl('sqlite:/var/lib/sbm/g.sqlite', '/srv')).toEqual({
      engine: 'sqlite',
      path: '/var/lib/sbm/g.sqlite',
    });
    expect(parseStateUrl('sqlite:///var/lib/sbm/g.sqlite', '/srv')).toEqual({
      engine: 'sqlite',
      path: '/var/lib/sbm/g.sqlite',
    });
    expect(parseStateUrl('sqlite::memory:')).toEqual({ engine: 'sqlite', path: ':memory:' });
    expect(parseStateUrl('postgres://u@db:5432/sbm')).toEqual({
      engine: 'postgres',
      url: 'postgres://u@db:5432/sbm',
    });
    expect(parseStateUrl('postgresql://u@db/sbm').engine).toBe('postgres');
  });

  it('refuses anything else with the accepted forms in the message', () => {
    for (const bad of ['mysql://x', 'sqlite:', './gateway.sqlite', '']) {
      expect(() => parseStateUrl(bad)).toThrow(StateUrlError);
    }
    expect(() => parseStateUrl('redis://x')).toThrow(/sqlite:\.\/relative.*postgres:\/\//);
  });

  it('creates the SQLite file and its folder in WAL mode', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sbm-url-'));
    try {
      const state = await openGatewayState('sqlite:nested/dir/gateway.sqlite', { baseDir: dir });
      expect(state.engine).toBe('sqlite');
      await state.createAccount({
        id: 'acc_x',
        plan: 'api',
        createdAt: new Date(),
        periodAnchor: new Date(),
      });
      expect((await stat(join(dir, 'nested/dir/gateway.sqlite-wal'))).isFile()).toBe(true);
      await state.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('gateway configuration', () => {
  it('has documented defaults', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      stateUrl: 'sqlite:./data/gateway.sqlite',
      storeUrl: 'file:./data/snapshots',
      baseUrl: 'http://127.0.0.1:8787',
      publicLimitPerMinute: 60,
      monthlyAllowance: 10_000,
      manifestPollMs: 30_000,
      sessionDays: 30,
    });
  });

  it('reads overrides and allows 0 to turn the public limit off', () => {
    const config = loadGatewayConfig({
      SBM_HOST: '0.0.0.0',
      SBM_PORT: '9000',
      SBM_STATE_URL: 'postgres://u@db/sbm',
      SBM_BASE_URL: 'https://burns.example/',
      SBM_PUBLIC_LIMIT_PER_MIN: '0',
      SBM_MONTHLY_ALLOWANCE: '500',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      stateUrl: 'postgres://u@db/sbm',
      baseUrl: 'https://burns.example',
      publicLimitPerMinute: 0,
      monthlyAllowance: 500,
    });
  });

  it('fails fast on bad values', () => {
    expect(() => loadGatewayConfig({ SBM_STATE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ SBM_PUBLIC_LIMIT_PER_MIN: '-1' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ SBM_MONTHLY_ALLOWANCE: '0' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ SBM_PORT: '70000' })).toThrow(ConfigError);
  });
});
