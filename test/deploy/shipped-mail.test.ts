/**
 * The shipped deployment sends its mail: deploy/sbm.env.example sets no SMTP, so sign-in and pack
 * delivery mails are .eml files in SBM_OUTBOX_DIR, which must lie where deploy/systemd/sbm-gateway.service
 * lets the gateway write (ProtectSystem=strict: only ReadWritePaths). Then a gateway configured by that
 * file, with /var/lib/sbm pointed at a temp folder, mails a sign-in link there.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../gateway/config.js';
import { type RunningGateway, startGateway } from '../../gateway/server.js';

const DEPLOY = fileURLToPath(new URL('../../deploy/', import.meta.url));
const STATE_DIR = '/var/lib/sbm';

/** `NAME=value` lines of the environment file (systemd's EnvironmentFile= and the cron lines' `.`). */
async function shippedEnv(): Promise<Record<string, string>> {
  const text = await readFile(join(DEPLOY, 'sbm.env.example'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

async function writablePaths(): Promise<string[]> {
  const unit = await readFile(join(DEPLOY, 'systemd', 'sbm-gateway.service'), 'utf8');
  expect(unit).toMatch(/^ProtectSystem=strict$/m);
  return [...unit.matchAll(/^ReadWritePaths=(.*)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
}

const inside = (path: string, dirs: string[]) =>
  dirs.some((dir) => path === dir || path.startsWith(`${dir}/`));

describe('the shipped deployment mails sign-in links', () => {
  let dir: string;
  let gw: RunningGateway;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sbm-shipped-mail-'));
  });

  afterAll(async () => {
    await gw?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('without SMTP, its outbox (and the state it writes) is where the unit may write', async () => {
    const env = await shippedEnv();
    const writable = await writablePaths();
    expect(env['SBM_SMTP_URL'] ?? '').toBe('');
    expect(env['SBM_OUTBOX_DIR']).toBeTruthy();
    expect(inside(env['SBM_OUTBOX_DIR']!, writable), `${env['SBM_OUTBOX_DIR']} in ${writable}`).toBe(true);
    const statePath = env['SBM_STATE_URL']!.replace(/^sqlite:/, '');
    expect(inside(statePath, writable), `${statePath} in ${writable}`).toBe(true);
  });

  it('a gateway configured by sbm.env.example writes the sign-in mail to that outbox', async () => {
    const shipped = await shippedEnv();
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(shipped)) {
      if (value !== '') env[name] = value.replaceAll(STATE_DIR, dir);
    }
    env['SBM_PORT'] = '0';
    delete env['SBM_METRICS_PORT'];
    gw = await startGateway(loadGatewayConfig(env), { log: () => {}, onError: () => {}, alert: () => {} });

    const cookies = new Map<string, string>();
    const request = async (path: string, form?: Record<string, string>) => {
      const headers: Record<string, string> = {};
      if (cookies.size > 0) headers['cookie'] = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      if (form) {
        headers['origin'] = new URL(gw.url).origin;
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      const response = await fetch(`${gw.url}${path}`, {
        method: form ? 'POST' : 'GET',
        headers,
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
        redirect: 'manual',
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      return response;
    };
    const page = await (await request('/account')).text();
    const formToken = /name="form" value="([^"]+)"/.exec(page)?.[1];
    expect(formToken).toBeTruthy();
    const sent = await request('/account/sign-in-link', { email: 'operator@example.com', form: formToken! });
    expect(sent.status).toBe(200);

    const outbox = shipped['SBM_OUTBOX_DIR']!.replaceAll(STATE_DIR, dir);
    const mails = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    expect(mails).toHaveLength(1);
    const mail = (await readFile(join(outbox, mails[0]!), 'utf8')).replace(/=\r?\n/g, '');
    expect(mail).toContain('To: operator@example.com');
    expect(mail).toContain(`${shipped['SBM_BASE_URL']}/account/sign-in?token=`);
  });
});
