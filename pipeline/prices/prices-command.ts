/** `sbm prices fetch|import`: TAO in USD and GBP per UTC day into `fx_daily`. */
import { Command } from 'commander';
import type { PipelineConfig } from '../config.js';
import { listingProblems } from '../csv/csv-rejected-error.js';
import { utcDayOption } from '../time/utc-day-option.js';
import { fetchFiatPrices } from './fetch-fiat-prices.js';
import { importFiatPrices } from './import-fiat-prices.js';

export function pricesCommand(config: PipelineConfig): Command {
  const prices = new Command('prices').description('TAO fiat prices (USD, GBP) per UTC day');
  prices
    .command('fetch')
    .description(
      'read daily TAO prices, and those of USDT, USDC, BTC and ETH (the tokens exchange records trade TAO against), from a CoinGecko-compatible API',
    )
    .option(
      '--from <date>',
      'first UTC day (default: the first collected day without a rate, else the last stored day, else 30 days ago)',
      utcDayOption,
    )
    .option('--to <date>', 'last UTC day (default: today)', utcDayOption)
    .option('--price-url <url>', 'API base including its version path', config.priceUrl)
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .option('--json', 'print a JSON summary')
    .action(
      async (flags: { from?: string; to?: string; priceUrl: string; warehouse: string; json?: boolean }) => {
        const summary = await fetchFiatPrices({
          priceUrl: flags.priceUrl,
          warehousePath: flags.warehouse,
          ...(flags.from ? { from: flags.from } : {}),
          ...(flags.to ? { to: flags.to } : {}),
        });
        if (flags.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        else {
          const gaps = Object.entries(summary.missing)
            .filter(([, days]) => days.length > 0)
            .map(([currency, days]) =>
              days.length <= 5
                ? `${currency}: no quote for ${days.join(', ')}`
                : `${currency}: no quote for ${days.length} days (${days[0]} .. ${days[days.length - 1]})`,
            );
          process.stdout.write(
            `stored ${summary.rows} prices for ${summary.from}..${summary.to}, and ${summary.tokens.rows} of other tokens\n`,
          );
          for (const gap of gaps) process.stderr.write(`warning: ${gap}\n`);
        }
      },
    );
  prices
    .command('import')
    .description('load daily prices from a CSV file (date,currency,tao_price[,source])')
    .argument('<file>', 'CSV file')
    .option('--warehouse <path>', 'DuckDB warehouse file', config.warehousePath)
    .action(async (file: string, flags: { warehouse: string }) => {
      const rows = await listingProblems(importFiatPrices({ file, warehousePath: flags.warehouse }), (line) =>
        process.stderr.write(line),
      );
      process.stdout.write(`stored ${rows} prices from ${file}\n`);
    });
  return prices;
}
