/** The one contract: every public resource as a zod schema; types come from here and nowhere else. */
export * from './checkout.js';
export * from './claim.js';
export * from './emissions.js';
export * from './envelope.js';
export * from './errors.js';
export * from './freshness.js';
export * from './order.js';
export * from './sku.js';
export * from './snapshot-paths.js';
export * from './subnet-detail.js';
export * from './subnet-history.js';
export * from './subnet-list.js';
export * from './subnet-row.js';
export * from './tax-check.js';
export * from './tax-published.js';
export * from './usage.js';
export * from './windows.js';
