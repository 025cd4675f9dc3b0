/** `sbm claims import`: the curated file of dated, published buyback claims into the warehouse. */
import { Command } from 'commander';
import type { PipelineConfig } from '../config.js';
import { listingProblems } from '../csv/csv-rejected-error.js';
import { importClaims } from './import-claims.js';

export function claimsCommand(config: PipelineConfig): Command {
  const claims = new Command('claims').description('dated published buyback claims (not verified revenue)');
  claims
    .command('import')
    .description('load claims from a CSV file (netuid,text,name_at_source,source,published,reviewed)')
    .argument('<file>', 'CSV file, e.g. data/claims.example.csv')
    .option('--replace', 'make the claims table equal the file (default: upsert its rows)')
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .action(async (file: string, flags: { replace?: boolean; warehouse: string }) => {
      const rows = await listingProblems(
        importClaims({ file, warehousePath: flags.warehouse, replace: flags.replace ?? false }),
        (line) => process.stderr.write(line),
      );
      process.stdout.write(`stored ${rows} claims from ${file}\n`);
    });
  return claims;
}
