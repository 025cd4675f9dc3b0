/**
 * What the README and docs/ refer to, read from the Markdown text: relative links (with their anchors),
 * `make` targets, and `sbm` / `sbm-gateway` command paths named in code. Beside it, what exists: the
 * headings of each file as GitHub makes anchors of them, the Makefile's targets, and the commander
 * programs' command trees (read from the entry points' own imports, so a command added there is seen).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CommandGroups } from '../../pipeline/command-line.js';

export const REPO = path.resolve(import.meta.dirname, '../..');

/** README.md and every docs/*.md, as repository-relative paths. */
export function docFiles(): string[] {
  const docs = readdirSync(path.join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** The text outside fenced code blocks and inline code spans, line by line (code blanked, lines kept). */
export function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      if (fenced || /^ {4}/.test(line)) return '';
      return line.replace(/`[^`]*`/g, '');
    })
    .join('\n');
}

/** Every piece of code: fenced blocks, indented blocks and inline spans. */
export function codeSpans(markdown: string): string[] {
  const spans: string[] = [];
  let fenced = false;
  let block: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fenced) spans.push(block.join('\n'));
      fenced = !fenced;
      block = [];
      continue;
    }
    if (fenced) {
      block.push(line);
      continue;
    }
    if (/^ {4}\S/.test(line)) {
      spans.push(line.trim());
      continue;
    }
    for (const match of line.matchAll(/`([^`]+)`/g)) spans.push(match[1] ?? '');
  }
  return spans;
}

export interface DocLink {
  file: string;
  line: number;
  target: string;
}

/** Markdown links and images whose target is not an absolute URL (http, https, mailto). */
export function relativeLinks(file: string, markdown: string): DocLink[] {
  const links: DocLink[] = [];
  prose(markdown)
    .split('\n')
    .forEach((line, index) => {
      for (const match of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        links.push({ file, line: index + 1, target });
      }
    });
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '')
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  return anchors;
}

/** `make X` named in code (an environment assignment before `make` is allowed). */
export function makeTargetsNamed(markdown: string): string[] {
  const targets: string[] = [];
  for (const span of codeSpans(markdown)) {
    for (const match of span.matchAll(/(?:^|[\s;&|(])make\s+([a-z][a-z0-9-]*)/gm))
      targets.push(match[1] ?? '');
  }
  return targets;
}

/** The Makefile's targets. */
export function makeTargets(): Set<string> {
  const makefile = readFileSync(path.join(REPO, 'Makefile'), 'utf8');
  const targets = new Set<string>();
  for (const match of makefile.matchAll(/^([a-z][a-z0-9-]*)\s*:(?!=)/gm)) targets.add(match[1] ?? '');
  return targets;
}

export interface CommandNamed {
  program: 'sbm' | 'sbm-gateway';
  words: string[];
  text: string;
}

/**
 * `sbm …` and `sbm-gateway …` in code, also as `npm run -s sbm -- …`: the words that follow up to the
 * first option, argument placeholder or punctuation. In a cron line (`10 0 * * * sbm cd …`) `sbm` after
 * the schedule is the user it runs as, not the program.
 */
export function commandsNamed(markdown: string): CommandNamed[] {
  const named: CommandNamed[] = [];
  for (const span of codeSpans(markdown)) {
    for (const match of span.matchAll(
      /(?<![\w/.-])(?<![\d*] )(sbm-gateway|sbm)(?:\s+--)?((?:[ \t]+[a-z][a-z-]*(?![\w.=/:<…-]))*)/g,
    )) {
      const words = (match[2] ?? '').trim().split(/\s+/).filter(Boolean);
      if (words.length === 0) continue;
      named.push({ program: match[1] as CommandNamed['program'], words, text: match[0] });
    }
  }
  return named;
}

/** The command trees of the two programs, built the way their entry points build them. */
export async function commandTrees(): Promise<Record<CommandNamed['program'], Command>> {
  const { Command } = await import('commander');
  const { loadPipelineConfig } = await import('../../pipeline/config.js');
  const { loadGatewayConfig } = await import('../../gateway/config.js');
  const { commandsAsked } = await import('../../pipeline/command-line.js');
  const { SBM_COMMANDS } = await import('../../pipeline/command-groups.js');
  const { GATEWAY_COMMANDS } = await import('../../gateway/command-groups.js');
  // Every group, as the entry points load them for `--help`.
  const build = async <Config>(name: string, groups: CommandGroups<Config>, config: Config) => {
    const program = new Command(name);
    for (const command of await commandsAsked([], groups, config)) program.addCommand(command);
    return program;
  };
  return {
    sbm: await build('sbm', SBM_COMMANDS, loadPipelineConfig({})),
    'sbm-gateway': await build('sbm-gateway', GATEWAY_COMMANDS, loadGatewayConfig({})),
  };
}

/** Whether the words name a command: each word a subcommand of the one before, while it has subcommands. */
export function commandExists(program: Command, words: readonly string[]): boolean {
  let command = program;
  for (const [index, word] of words.entries()) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (next) {
      command = next;
      continue;
    }
    // A word after a command without subcommands is its argument; the first word must be a command.
    return index > 0 && command.commands.length === 0;
  }
  return true;
}
