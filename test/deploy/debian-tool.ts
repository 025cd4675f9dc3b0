/**
 * Debian's own builds of the outside tools the deployment tests run (nginx, promtool from the
 * `prometheus` package): used when present, installed with apt-get when this is root on Debian (a
 * banner says so, as the other test servers do), otherwise the test is skipped with the reason.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SEARCH = ['/usr/sbin', '/usr/bin', '/sbin', '/bin', '/usr/local/bin', '/usr/local/sbin'];

function find(command: string): string | null {
  for (const dir of SEARCH) if (existsSync(`${dir}/${command}`)) return `${dir}/${command}`;
  return null;
}

/** The tool's path, or the reason it is not available here (the caller skips with it). */
export function debianTool(command: string, pkg: string): { path: string } | { skip: string } {
  const present = find(command);
  if (present) return { path: present };
  if (process.getuid?.() !== 0 || !find('apt-get')) {
    return {
      skip: `${command} is not installed and cannot be here (needs root and apt-get): apt-get install ${pkg}`,
    };
  }
  process.stderr.write(`[deploy tests] installing Debian's ${pkg} with apt-get for ${command} (once)...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], {
      stdio: 'ignore',
      env,
    });
  try {
    install();
  } catch {
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
      install();
    } catch (error) {
      return {
        skip: `apt-get could not install ${pkg}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  const installed = find(command);
  return installed ? { path: installed } : { skip: `${pkg} installed but ${command} not found` };
}
