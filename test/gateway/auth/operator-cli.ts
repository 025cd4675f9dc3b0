/**
 * The operator CLI in-process for tests: the command builders `gateway/cli.ts` mounts, with their output
 * captured instead of printed and commander's exits turned into thrown errors.
 */
import { Command } from 'commander';
import type { CommandIo } from '../../../gateway/commands/command-io.js';

/** Returns `run(...args)`: runs one command line and resolves to what it printed (rejects on failure). */
export function operatorCli(
  commands: (io: CommandIo) => Command[],
  now: () => Date,
): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const lines: string[] = [];
    const program = new Command('sbm-gateway')
      .exitOverride()
      .configureOutput({ writeErr: () => {}, writeOut: () => {} });
    for (const command of commands({ out: (text) => lines.push(text), now })) program.addCommand(command);
    for (const sub of program.commands) {
      sub.exitOverride().configureOutput({ writeErr: () => {} });
      for (const leaf of sub.commands) leaf.exitOverride().configureOutput({ writeErr: () => {} });
    }
    await program.parseAsync(args, { from: 'user' });
    return lines.map((line) => `${line}\n`).join('');
  };
}
