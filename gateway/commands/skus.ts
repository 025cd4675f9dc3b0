import { Command } from 'commander';
import { openObjectStore } from '../../pipeline/store/index.js';
import type { GatewayConfig } from '../config.js';
import { catalogueWithPrices, formatPrice, onSale } from '../orders/catalogue.js';
import { readPublishedCalendar, yearCoverage } from '../orders/tax-year-coverage.js';
import { type CommandIo, printJson, processIo } from './command-io.js';

/**
 * `skus list`: the packs on sale at the configured prices (`SBM_SKU_PRICES`): those whose tax year the
 * published record covers from 6 April (to 5 April, or to yesterday for the year under way). The text
 * form names the other packs and the first UK day each lacks; `--json` lists only the packs on sale.
 */
export function skusCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const skus = new Command('skus').description('The tax packs on sale');
  skus
    .command('list')
    .description('List the SKUs on sale (tax years the published record covers) with coldkey limit and price')
    .option('--json', 'print JSON: the SKUs on sale')
    .action(async (options: { json?: boolean }) => {
      const store = openObjectStore(config.storeUrl, config.s3);
      let calendar: Awaited<ReturnType<typeof readPublishedCalendar>>;
      try {
        calendar = await readPublishedCalendar(store);
      } finally {
        await store.close();
      }
      const now = io.now();
      const sale = onSale(
        catalogueWithPrices(config.orders.skuPrices),
        (taxYear) => yearCoverage(calendar, taxYear, now).reason,
      );
      if (options.json) {
        printJson(io, sale.skus);
        return;
      }
      for (const sku of sale.skus) {
        io.out(
          `${sku.sku}  ${sku.name}  tax year ${sku.tax_year}  up to ${sku.max_coldkeys} coldkeys  ` +
            formatPrice(sku.amount_minor, sku.currency),
        );
      }
      if (sale.skus.length === 0)
        io.out('no pack on sale: the published record covers no whole tax year yet');
      for (const { sku } of sale.notOnSale) {
        const missing = yearCoverage(calendar, sku.tax_year, now).firstMissingDay;
        io.out(`not on sale: ${sku.sku} (the record lacks UK day ${missing})`);
      }
    });
  return skus;
}
