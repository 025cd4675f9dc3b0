import { Command } from 'commander';
import type { GatewayConfig } from '../config.js';
import { catalogueWithPrices, formatPrice } from '../orders/catalogue.js';
import { type CommandIo, printJson, processIo } from './command-io.js';

/** `skus list`: the packs on sale at the configured prices (`SBM_SKU_PRICES`). */
export function skusCommand(config: GatewayConfig, io: CommandIo = processIo): Command {
  const skus = new Command('skus').description('The tax packs on sale');
  skus
    .command('list')
    .description('List the SKUs with their tax year, coldkey limit and price')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      const catalogue = catalogueWithPrices(config.orders.skuPrices);
      if (options.json) {
        printJson(io, catalogue.skus);
        return;
      }
      for (const sku of catalogue.skus) {
        io.out(
          `${sku.sku}  ${sku.name}  tax year ${sku.tax_year}  up to ${sku.max_coldkeys} coldkeys  ` +
            formatPrice(sku.amount_minor, sku.currency),
        );
      }
    });
  return skus;
}
