/**
 * The entry files load only the command group a command line names (`commandsAsked`): the real `sbm` and
 * `sbm-gateway` still list every command in their help and still say which command is unknown, and a group's
 * command runs with only its own group loaded.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandsAsked } from '../../pipeline/command-line.js';
import { runToEnd } from '../../pipeline/demo/child-process.js';

function groups(loaded: string[]) {
  const group = (name: string) => async (config: { tag: string }) => {
    loaded.push(name);
    return new Command(name).description(config.tag);
  };
  return { serve: group('serve'), orders: group('orders'), skus: group('skus') };
}

describe('commandsAsked', () => {
  it('loads only the group named by the first word, built with the config', async () => {
    const loaded: string[] = [];
    const commands = await commandsAsked(['node', 'cli', 'orders', 'fulfil'], groups(loaded), { tag: 'x' });
    expect(loaded).toEqual(['orders']);
    expect(commands.map((c) => [c.name(), c.description()])).toEqual([['orders', 'x']]);
  });

  it.each([
    ['no command', []],
    ['--help', ['--help']],
    ['help for a group', ['help', 'orders']],
    ['an unknown word', ['ordes']],
    ['an option first', ['--version']],
  ])('loads every group, in their order, for %s', async (_, words) => {
    const loaded: string[] = [];
    const commands = await commandsAsked(['node', 'cli', ...words], groups(loaded), { tag: 'x' });
    expect(commands.map((c) => c.name())).toEqual(['serve', 'orders', 'skus']);
  });
});

describe('the real command lines', () => {
  const run = (entry: string, ...args: string[]) =>
    runToEnd(process.execPath, ['--import', 'tsx', entry, ...args], process.env);

  it('list every command in their help', async () => {
    const gateway = await run('gateway/cli.ts', '--help');
    for (const name of ['serve', 'accounts', 'keys', 'sessions', 'orders', 'skus', 'stripe'])
      expect(gateway).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    const sbm = await run('pipeline/cli.ts', '--help');
    for (const name of ['devnet', 'collect', 'daily', 'status', 'sql', 'demo', 'emissions', 'tax'])
      expect(sbm).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('say which command is unknown, and run a group’s command', async () => {
    await expect(run('gateway/cli.ts', 'ordes')).rejects.toThrow(/unknown command 'ordes'/);
    expect(await run('gateway/cli.ts', 'skus', 'list', '--json')).toMatch(/^\[/);
  });
});
