/**
 * Loaded with `--import` into every gateway process of the order fault run (`serve`, `orders fulfil`,
 * `orders reconcile`); nothing in the product knows about it. It does three things, each from the
 * environment:
 *
 * - `SBM_FAULT_CLOCK_OFFSET_MS`: the process's clock runs that far from the real one, so the gateway sells
 *   and builds the fixed order world's tax year, and the final pass can run after every lease has ended.
 * - `SBM_FAULT_STORE_FLAG`: while that file exists, the folder store fails as an object store in trouble:
 *   its content `5xx` makes every call throw a 503 at once, `timeout` makes it wait 5 s and then throw.
 * - `SBM_FAULT_LOG`: appends one line per pack stored (`put <key>`) and per email written
 *   (`mail <file>`), so the run counts builds and emails across processes, killed ones included.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';
import { FolderObjectStore } from '../../pipeline/store/folder-store.js';

const offset = Number(process.env['SBM_FAULT_CLOCK_OFFSET_MS'] ?? '0');
if (offset !== 0) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [number]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
}

const flag = process.env['SBM_FAULT_STORE_FLAG'];
const log = process.env['SBM_FAULT_LOG'];

function storeFault(): string | null {
  if (!flag) return null;
  try {
    return readFileSync(flag, 'utf8').trim();
  } catch {
    return null;
  }
}

async function failIfFaulty(): Promise<void> {
  const fault = storeFault();
  if (fault === 'timeout') {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    throw new Error('object store request timed out after 5000 ms');
  }
  if (fault === '5xx') throw new Error('object store answered 503 Slow Down');
}

const proto = FolderObjectStore.prototype as unknown as Record<
  string,
  (...args: unknown[]) => Promise<unknown>
>;
for (const method of ['put', 'get', 'list', 'delete']) {
  const original = proto[method]!;
  proto[method] = async function (this: unknown, ...args: unknown[]) {
    await failIfFaulty();
    const result = await original.apply(this, args);
    if (method === 'put' && log && String(args[0]).startsWith('tax-packs/'))
      appendFileSync(log, `put ${String(args[0])} ${process.pid}\n`);
    return result;
  };
}

if (log) {
  const rename = fsPromises.rename;
  fsPromises.rename = async (from, to) => {
    await rename(from, to);
    if (String(to).endsWith('.eml')) appendFileSync(log, `mail ${basename(String(to))} ${process.pid}\n`);
  };
  syncBuiltinESMExports();
}
