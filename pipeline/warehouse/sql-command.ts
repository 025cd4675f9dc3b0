/** `sbm sql "<query>"`: a read-only query for analysts who have nothing else installed. */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { PipelineConfig } from '../config.js';
import { formatResult, type QueryFormat, queryReadOnly } from './read-only-query.js';

export function sqlCommand(config: PipelineConfig): Command {
  return new Command('sql')
    .description('run one read-only SQL query against the warehouse')
    .argument('<query>', 'SQL, e.g. "SELECT * FROM burns_daily ORDER BY day DESC LIMIT 10"')
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'csv', 'json']).default('table'),
    )
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .action(async (query: string, flags: { format: QueryFormat; warehouse: string }) => {
      if (query.trim() === '') throw new InvalidArgumentError('the query is empty');
      const result = await queryReadOnly(flags.warehouse, query);
      process.stdout.write(formatResult(result, flags.format));
    });
}
