/**
 * The README and docs/ stay true: every relative link and anchor resolves, every `make` target and every
 * `sbm` / `sbm-gateway` command they name exists, and the README stays within two screens.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commandExists,
  commandsNamed,
  commandTrees,
  docFiles,
  headingAnchors,
  makeTargets,
  makeTargetsNamed,
  REPO,
  relativeLinks,
} from './doc-references.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

describe('README and docs/', () => {
  it('the README is at most 220 lines and links every page of docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(220);
    const linked = new Set(relativeLinks('README.md', readme).map((link) => link.target.split('#')[0]));
    const missing = docFiles()
      .filter((file) => file.startsWith('docs/'))
      .filter((file) => !linked.has(file));
    expect(missing).toEqual([]);
  });

  it('every relative link points at a file of the repository, and every anchor at a heading', () => {
    const broken: string[] = [];
    for (const file of docFiles()) {
      for (const link of relativeLinks(file, read(file))) {
        const [target = '', anchor] = link.target.split('#');
        const resolved =
          target === '' ? path.join(REPO, file) : path.resolve(path.dirname(path.join(REPO, file)), target);
        const where = `${file}:${link.line} → ${link.target}`;
        if (!resolved.startsWith(`${REPO}${path.sep}`)) {
          broken.push(`${where}: outside the repository`);
          continue;
        }
        if (!existsSync(resolved)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor !== undefined) {
          if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) {
            broken.push(`${where}: anchor on a file that is not Markdown`);
          } else if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
            broken.push(`${where}: no heading with that anchor`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every make target named exists in the Makefile', () => {
    const targets = makeTargets();
    const unknown = docFiles().flatMap((file) =>
      makeTargetsNamed(read(file))
        .filter((target) => !targets.has(target))
        .map((target) => `${file}: make ${target}`),
    );
    expect(unknown).toEqual([]);
    // The test reads what it should: the README names the two commands.
    expect(makeTargetsNamed(read('README.md'))).toEqual(expect.arrayContaining(['demo', 'test']));
  });

  it('every sbm and sbm-gateway command named exists in the command-line programs', async () => {
    const trees = await commandTrees();
    expect(trees.sbm.commands.map((c) => c.name())).toEqual(expect.arrayContaining(['daily', 'demo', 'sql']));
    expect(trees['sbm-gateway'].commands.map((c) => c.name())).toEqual(
      expect.arrayContaining(['serve', 'orders']),
    );
    const unknown: string[] = [];
    let checked = 0;
    for (const file of docFiles()) {
      for (const named of commandsNamed(read(file))) {
        checked += 1;
        if (!commandExists(trees[named.program], named.words)) unknown.push(`${file}: ${named.text.trim()}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(checked).toBeGreaterThan(50);
    // Loading every command module (the whole pipeline and gateway) takes a while on busy cores.
  }, 240_000);
});
