/**
 * `sbm`: the batch command line. The only pipeline file that reads `process.env` or calls
 * `process.exit`; every command receives the typed configuration built here.
 */
import { Command } from 'commander';
import { runProgram } from './command-line.js';
import { loadPipelineConfig } from './config.js';

async function main(): Promise<number> {
  const config = loadPipelineConfig(process.env);
  const program = new Command('sbm')
    .description('Subnet burn metrics: batch pipeline (collect, publish, sandbox chain)')
    .version('0.1.0');
  void config;
  return runProgram(program, process.argv);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
