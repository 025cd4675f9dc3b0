/**
 * `sbm`: the batch command line. The only pipeline file that reads `process.env` or calls
 * `process.exit` (through `exitWhenWritten`); every command receives the typed configuration built here.
 */
import { Command } from 'commander';
import { SBM_COMMANDS } from './command-groups.js';
import { commandsAsked, exitWhenWritten, runProgram } from './command-line.js';
import { loadPipelineConfig } from './config.js';

// The AWS SDK prints a NodeVersionSupportWarning on stderr in every Node 20 process that builds an S3
// client: SDK releases after January 2027 need Node 22 (aws/aws-sdk-js-v3#7983). The SDK is pinned in
// package.json, so that notice is for whoever upgrades it (README "Configuration"), not for operators;
// this is the SDK's documented opt-out. `AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false` brings it back.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';

async function main(): Promise<number> {
  const config = loadPipelineConfig(process.env);
  const program = new Command('sbm')
    .description('Subnet burn metrics: the batch pipeline (sandbox chain, collection, publication)')
    .version('0.1.0');
  for (const command of await commandsAsked(process.argv, SBM_COMMANDS, config)) program.addCommand(command);
  return runProgram(program, process.argv, { debug: process.env['SBM_DEBUG'] === '1' });
}

// Exits only once stdout and stderr have drained: `process.exit` right away cut output to a pipe at 64 KB.
main().then(
  (code) => exitWhenWritten(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitWhenWritten(1);
  },
);
