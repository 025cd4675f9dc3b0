/**
 * The second baseline: Debian's nginx serving the same bytes from files, configured as a static file
 * server is tuned: one worker, `sendfile`, keep-alive without a request cap, `gzip_static` for the
 * precompressed `.gz` beside each file. Debian's nginx has no brotli module, so the brotli bytes are a
 * file of their own served with `Content-Encoding: br` (what `brotli_static` would send). Its access
 * log is on, buffered, as the gateway's request log is. Absent nginx (`make bench` installs it as root
 * with apt-get, see install-nginx.sh), the benchmark says so and reports against the bare server only.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const NGINX = '/usr/sbin/nginx';

export interface NginxFile {
  /** The URL path nginx serves it at (no query string: nginx maps paths to files). */
  path: string;
  body: Uint8Array;
  contentType: string;
  /** Served with this `Content-Encoding` (for a file that is already compressed). */
  encoding?: 'br';
}

export interface NginxServer {
  url: string;
  close(): Promise<void>;
}

export function nginxAvailable(): boolean {
  return spawnSync(NGINX, ['-v'], { stdio: 'ignore' }).error === undefined;
}

export async function startNginx(files: readonly NginxFile[]): Promise<NginxServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sbm-bench-nginx-'));
  const root = join(dir, 'root');
  const locations: string[] = [];
  for (const file of files) {
    const target = join(root, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.body);
    const headers = file.encoding ? `add_header Content-Encoding ${file.encoding};` : '';
    locations.push(`location = ${file.path} { default_type "${file.contentType}"; ${headers} }`);
  }
  const port = await freePort();
  const config = `
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
  gzip_static on;
  etag on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    ${locations.join('\n    ')}
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: 'ignore',
    },
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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1');
      socket.once('listening', () => socket.close(() => resolve(false)));
      socket.once('error', () => resolve(true));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('nginx did not start listening');
}
