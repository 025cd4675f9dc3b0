/** `sbm sql "<query>"`: a read-only query for analysts who have nothing else installed. */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { PipelineConfig } from '../config.js';
import { formatResult, type QueryFormat, queryReadOnly } from './read-only-query.js';

export function sqlCommand(config: PipelineConfig): Command {
  return new Command('sql')
    .description('run one read-only SQL query against the warehouse')
    .argument('<query>', 'SQL, e.g. "SELECT * FROM subnet_burns_daily ORDER BY day DESC LIMIT 10"')
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'csv', 'json']).default('table'),
    )
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .option('--wait <seconds>', 'how long to wait while sbm collect/daily writes the file', seconds, 30)
    .action(async (query: string, flags: { format: QueryFormat; warehouse: string; wait: number }) => {
      if (query.trim() === '') throw new InvalidArgumentError('the query is empty');
      const result = await queryReadOnly(flags.warehouse, query, { lockWaitMs: flags.wait * 1000 });
      process.stdout.write(formatResult(result, flags.format));
    });
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('--wait must be a number of seconds >= 0');
  return n;
}
