/**
 * The shipped site (deploy/nginx/sbm.conf) in front of the gateway, for `make bench`: its HTTPS server's
 * locations as shipped (the public-read cache, the proxy settings), served over plain HTTP on loopback so
 * that it compares with the static-file nginx of `nginx-server.ts` on the same transport (TLS would cost
 * both alike, and sendfile is off under TLS). The wrapper around it is the static nginx's own: one
 * worker, sendfile, keep-alive without a request cap, the access log on and buffered. Only the listen
 * lines, the TLS lines, the upstream's port and the cache folder are changed; each must be in the file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, type NginxServer, waitForPort } from './nginx-server.js';

const NGINX = '/usr/sbin/nginx';
const SITE = fileURLToPath(new URL('../../deploy/nginx/sbm.conf', import.meta.url));

export async function startShippedNginx(gatewayUrl: string): Promise<NginxServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-shipped-nginx-'));
  const [port, redirectPort] = [await freePort(), await freePort()];
  let site = await readFile(SITE, 'utf8');
  const replace = (from: string | RegExp, to: string) => {
    const next = site.replace(from, to);
    if (next === site) throw new Error(`deploy/nginx/sbm.conf no longer contains ${String(from)}`);
    site = next;
  };
  replace('server 127.0.0.1:8787;', `server 127.0.0.1:${new URL(gatewayUrl).port};`);
  replace('/var/lib/nginx/sbm-cache', join(dir, 'cache'));
  replace('/var/log/nginx/sbm-access.log', join(dir, 'sbm-access.log'));
  replace('listen 80;', `listen 127.0.0.1:${redirectPort};`);
  replace('listen [::]:80;', '');
  replace('listen 443 ssl http2;', `listen 127.0.0.1:${port};`);
  replace('listen [::]:443 ssl http2;', '');
  replace(/^\s*ssl_[a-z_]+ [^;]*;$/gm, '');
  const temp = join(dir, 'temp');
  await mkdir(temp);
  await writeFile(join(dir, 'sbm.conf'), site);
  await writeFile(
    join(dir, 'nginx.conf'),
    `
user root;
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 60s;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${join(dir, 'sbm.conf')};
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    { stdio: 'ignore' },
  );
  await waitForPort(port, child);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
