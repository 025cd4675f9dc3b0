/**
 * `make demo` listens where its variables say: a port that is taken stops it before anything starts,
 * with one line naming the port and the variable (never a silent move to a random port).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPipelineConfig } from '../../pipeline/config.js';
import { freePort } from '../../pipeline/demo/child-process.js';
import { claimDemoPorts } from '../../pipeline/demo/demo-command.js';

let dir: string;
let held: Server;
let heldPort: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sbm-demo-ports-'));
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

/** `sbm demo` with these variables, on a data folder of its own; its exit code and output. */
function demo(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'pipeline/cli.ts', 'demo'], {
      env: {
        ...process.env,
        SBM_WAREHOUSE: join(dir, 'burns.duckdb'),
        SBM_EMISSIONS_DB: join(dir, 'emissions.duckdb'),
        SBM_STORE_URL: `file:${join(dir, 'snapshots')}`,
        SBM_STATE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('make demo on a taken port', () => {
  it('SBM_PORT taken: the real command exits 1 with one line naming the port and the variable, nothing started', async () => {
    const result = await demo({
      SBM_PORT: String(heldPort),
      SBM_DEVNET_PORT: '0',
      SBM_PRICE_PORT: '0',
      SBM_STRIPE_PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `error: port ${heldPort} is taken (SBM_PORT): stop what listens there, or choose another, e.g. SBM_PORT=${heldPort + 1} make demo`,
    ]);
  });

  it.each([
    ['devnet', 'SBM_DEVNET_PORT'],
    ['price', 'SBM_PRICE_PORT'],
    ['stripe', 'SBM_STRIPE_PORT'],
  ] as const)('the %s port taken: the error names %s', async (name, variable) => {
    const ports = { gateway: 0, devnet: 0, price: 0, stripe: 0, [name]: heldPort };
    await expect(claimDemoPorts(ports)).rejects.toThrow(
      `port ${heldPort} is taken (${variable}): stop what listens there, or choose another, e.g. ${variable}=${heldPort + 1} make demo`,
    );
  });

  it('the same port for two services is refused', async () => {
    const port = await freePort();
    await expect(claimDemoPorts({ gateway: port, devnet: port, price: 0, stripe: 0 })).rejects.toThrow(
      `port ${port} is set for two of SBM_PORT, SBM_DEVNET_PORT`,
    );
  });

  it('free ports are kept as asked, and 0 becomes a free port of its own', async () => {
    const wanted = await freePort();
    const ports = await claimDemoPorts({ gateway: wanted, devnet: 0, price: 0, stripe: 0 });
    expect(ports.gateway).toBe(wanted);
    expect(new Set([ports.devnet, ports.price, ports.stripe]).size).toBe(3);
    expect([ports.devnet, ports.price, ports.stripe]).not.toContain(0);
  });

  it('the variables are read with their defaults, and a port that is not a number is refused', () => {
    expect(loadPipelineConfig({}).demoPorts).toEqual({
      gateway: 8787,
      devnet: 9944,
      price: 9945,
      stripe: 12111,
    });
    expect(loadPipelineConfig({ SBM_PORT: '8899' }).demoPorts.gateway).toBe(8899);
    // What the daily run publishes as method links points at the gateway the demo starts.
    expect(loadPipelineConfig({ SBM_PORT: '8899' }).baseUrl).toBe('http://127.0.0.1:8899');
    expect(loadPipelineConfig({}).baseUrl).toBe('http://127.0.0.1:8787');
    expect(() => loadPipelineConfig({ SBM_PORT: 'eighty' })).toThrow(
      'SBM_PORT must be an integer >= 0, got "eighty"',
    );
    expect(() => loadPipelineConfig({ SBM_STRIPE_PORT: '70000' })).toThrow(
      'SBM_STRIPE_PORT must be a port 0..65535',
    );
  });
});
