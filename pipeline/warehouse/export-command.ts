/** `sbm export parquet`: the warehouse tables as Parquet files for analysts' own tools. */
import { Command } from 'commander';
import type { PipelineConfig } from '../config.js';
import { exportParquet } from './export-parquet.js';

export function exportCommand(config: PipelineConfig): Command {
  const exporter = new Command('export').description('export the warehouse');
  exporter
    .command('parquet')
    .description('write every table as <table>.parquet (RAO columns as DECIMAL(38,0))')
    .option('--out <dir>', 'output folder', './data/parquet')
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .action(async (flags: { out: string; warehouse: string }) => {
      for (const { table, file, rows } of await exportParquet({
        warehousePath: flags.warehouse,
        outDir: flags.out,
      })) {
        process.stdout.write(`${table}: ${rows} rows -> ${file}\n`);
      }
    });
  return exporter;
}
