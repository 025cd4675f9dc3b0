import { Command, InvalidArgumentError } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandExit, runProgram } from '../../pipeline/command-line.js';

/** What a user sees on stderr and the exit code, for one command line. */
async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const program = new Command('sbm').configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program
    .command('collect')
    .option('--from <day>')
    .option('--to <day>')
    .action((flags: { from?: string; to?: string }) => {
      if (flags.from && flags.to && flags.from > flags.to) {
        throw new InvalidArgumentError(`--from ${flags.from} is after --to ${flags.to}`);
      }
    });
  program.command('attention').action(() => {
    process.stderr.write('needs attention\n');
    throw new CommandExit(2);
  });
  program.command('fail').action(() => {
    throw new Error('the node is down\nsecond line');
  });
  const code = await runProgram(program, ['node', 'sbm', ...args], { debug: false });
  return { code, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe('runProgram', () => {
  it('prints an argument error thrown from inside an action, once, and exits 1', async () => {
    const { code, stderr } = await run(['collect', '--from', '2026-11-20', '--to', '2026-11-10']);
    expect(code).toBe(1);
    expect(stderr).toBe('error: --from 2026-11-20 is after --to 2026-11-10\n');
  });

  it('leaves errors commander reports itself to commander (printed once)', async () => {
    const { code, stderr } = await run(['nosuch']);
    expect(code).toBe(1);
    expect(stderr.match(/unknown command 'nosuch'/g)).toHaveLength(1);
  });

  it('turns any other failure into its first line, without a stack', async () => {
    const { code, stderr } = await run(['fail']);
    expect(code).toBe(1);
    expect(stderr).toBe('error: the node is down\n');
  });

  it('ends a command that throws CommandExit with its code and no message of its own', async () => {
    expect(await run(['attention'])).toEqual({ code: 2, stderr: 'needs attention\n' });
  });

  it('exits 0 on success', async () => {
    expect((await run(['collect'])).code).toBe(0);
  });
});
