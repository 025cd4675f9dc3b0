/**
 * `sbm`: the batch command line. The only pipeline file that reads `process.env` or calls
 * `process.exit`; every command receives the typed configuration built here.
 */
import { Command } from 'commander';
import { claimsCommand } from './claims/claims-command.js';
import { collectCommand } from './collect/collect-command.js';
import { runProgram } from './command-line.js';
import { loadPipelineConfig } from './config.js';
import { dailyCommand } from './daily/daily-command.js';
import { demoCommand } from './demo/demo-command.js';
import { devnetCommand } from './devnet/command.js';
import { emissionsCommand } from './emissions/emissions-command.js';
import { pricesCommand } from './prices/prices-command.js';
import { publishCommand } from './snapshots/publish-command.js';
import { exportCommand } from './warehouse/export-command.js';
import { sqlCommand } from './warehouse/sql-command.js';

async function main(): Promise<number> {
  const config = loadPipelineConfig(process.env);
  const program = new Command('sbm')
    .description('Subnet burn metrics: the batch pipeline (sandbox chain, collection, publication)')
    .version('0.1.0');
  for (const command of [
    devnetCommand,
    collectCommand,
    pricesCommand,
    claimsCommand,
    publishCommand,
    dailyCommand,
    sqlCommand,
    exportCommand,
    demoCommand,
    emissionsCommand,
  ]) {
    program.addCommand(command(config));
  }
  return runProgram(program, process.argv, { debug: process.env['SBM_DEBUG'] === '1' });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
