/**
 * The batch command line's groups (`sbm devnet`, `daily`, `tax`, …), each loaded only when a command line
 * asks for it (`commandsAsked`); the tests that check every command build them all from here.
 */
import type { CommandGroups } from './command-line.js';
import type { PipelineConfig } from './config.js';

/** The command groups, in the order `sbm --help` lists them, each loaded only when asked for. */
export const SBM_COMMANDS: CommandGroups<PipelineConfig> = {
  devnet: async (config) => (await import('./devnet/command.js')).devnetCommand(config),
  collect: async (config) => (await import('./collect/collect-command.js')).collectCommand(config),
  yields: async (config) => (await import('./yields/yields-command.js')).yieldsCommand(config),
  prices: async (config) => (await import('./prices/prices-command.js')).pricesCommand(config),
  claims: async (config) => (await import('./claims/claims-command.js')).claimsCommand(config),
  publish: async (config) => (await import('./snapshots/publish-command.js')).publishCommand(config),
  daily: async (config) => (await import('./daily/daily-command.js')).dailyCommand(config),
  status: async (config) => (await import('./status/status-command.js')).statusCommand(config),
  sql: async (config) => (await import('./warehouse/sql-command.js')).sqlCommand(config),
  export: async (config) => (await import('./warehouse/export-command.js')).exportCommand(config),
  demo: async (config) => (await import('./demo/demo-command.js')).demoCommand(config),
  emissions: async (config) => (await import('./emissions/emissions-command.js')).emissionsCommand(config),
  tax: async () => (await import('./tax/products/tax-command.js')).taxCommand(),
};
