/**
 * The pictures of docs/architecture.md stay true to the repository: every folder, file and module they
 * name exists, the layers picture shows every folder directly under pipeline/, gateway/ and pipeline/tax/
 * (a folder added there is drawn, or this fails), the page shows both pictures, every folder the page
 * names in code exists, and each committed SVG is what test/tools/architecture-picture.ts draws now
 * (`make architecture-picture` rewrites them).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSpans } from '../docs/doc-references.js';
import { LAYERS, PICTURES, REPO } from '../tools/architecture-picture.js';
import { namedPaths, renderSvg } from '../tools/box-diagram.js';

const PAGE = 'docs/architecture.md';
/** The folders whose every subfolder the layers picture draws. */
const DRAWN_IN_FULL = ['pipeline/', 'gateway/', 'pipeline/tax/'];

const isFolder = (relative: string) => {
  const absolute = path.join(REPO, relative);
  return existsSync(absolute) && statSync(absolute).isDirectory();
};

/** Whether a file of that name is anywhere under the folder. */
function hasModule(folder: string, name: string): boolean {
  if (!isFolder(folder)) return false;
  return readdirSync(path.join(REPO, folder), { recursive: true, withFileTypes: true }).some(
    (entry) => entry.isFile() && entry.name === name,
  );
}

function subfolders(folder: string): string[] {
  return readdirSync(path.join(REPO, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${folder}${entry.name}/`)
    .sort();
}

describe('the pictures of docs/architecture.md', () => {
  it('every folder, file and module a picture names exists', () => {
    const named = PICTURES.flatMap(namedPaths);
    expect(named.length).toBeGreaterThan(60);
    const missing = named
      .filter((n) => {
        if (n.kind === 'folder') return !isFolder(n.path);
        if (n.kind === 'file') return !existsSync(path.join(REPO, n.path));
        return !hasModule(n.path, n.module!);
      })
      .map((n) => `${n.picture} (${n.box}): ${n.kind === 'module' ? `${n.path}…/${n.module}` : n.path}`);
    expect(missing).toEqual([]);
  });

  it('the layers picture shows every folder directly under pipeline/, gateway/ and pipeline/tax/', () => {
    const shown = new Set(namedPaths(LAYERS).map((n) => n.path));
    const notShown = DRAWN_IN_FULL.flatMap(subfolders).filter((folder) => !shown.has(folder));
    expect(notShown).toEqual([]);
    // The tax side is drawn as its three layers.
    expect([...shown]).toEqual(
      expect.arrayContaining([
        'pipeline/tax/products/',
        'pipeline/tax/uk-rules/',
        'pipeline/tax/chain-record/',
      ]),
    );
  });

  it('the page shows both pictures, and every folder it names in code exists', () => {
    const page = readFileSync(path.join(REPO, PAGE), 'utf8');
    for (const picture of PICTURES) {
      expect(page).toContain(`](${path.relative(path.dirname(PAGE), picture.file)})`);
    }
    const folders = codeSpans(page).flatMap((span) =>
      [...span.matchAll(/(?<![\w/.-])(?:pipeline|gateway|test|deploy)\/(?:[\w-]+\/)*/g)].map((m) => m[0]),
    );
    expect(folders).toEqual(expect.arrayContaining(['pipeline/tax/chain-record/', 'gateway/orders/']));
    expect([...new Set(folders)].filter((folder) => !isFolder(folder))).toEqual([]);
  });

  it('each committed picture is what test/tools/architecture-picture.ts draws now', () => {
    for (const picture of PICTURES) {
      const committed = readFileSync(path.join(REPO, picture.file), 'utf8');
      // `make architecture-picture` rewrites it.
      expect(committed, picture.file).toBe(renderSvg(picture));
    }
  });
});
