/**
 * poppler-utils (`pdftotext`, `pdftoppm`) for reading and rendering packs: installed through
 * test/tax/products/pack/install-poppler.sh when missing (as root with apt-get, like the Ceph test server).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function ensurePoppler(): void {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return;
  } catch {
    const script = fileURLToPath(new URL('./install-poppler.sh', import.meta.url));
    execFileSync('sh', [script], { stdio: 'inherit' });
  }
}
