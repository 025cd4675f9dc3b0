/**
 * Runs dependency-cruiser with the project's rule file (`.dependency-cruiser.cjs`) over a tree laid out
 * like this repository (pipeline/, gateway/, test/ and a tsconfig.json at its root).
 *
 * Through the API rather than the `depcruise` command: dependency-cruiser 18's command line refuses
 * Node 20 outright (its engines say ^22), while the API it wraps runs here unchanged.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, format, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
export const ruleFile = join(repositoryRoot, '.dependency-cruiser.cjs');

/** The folders the rules speak about; the check cruises whichever of them exist under the root. */
const layerFolders = ['pipeline', 'gateway', 'test'];

export interface LayerReport {
  violations: IViolation[];
  /** dependency-cruiser's `err-long` text: one block per violation with the rule's comment. */
  text: string;
  /** Modules and import edges seen, so a caller can tell "no violations" from "saw nothing". */
  modulesCruised: number;
  dependenciesCruised: number;
}

export async function cruiseLayers(root: string = repositoryRoot): Promise<LayerReport> {
  const options = await extractDepcruiseOptions(ruleFile);
  const tsConfigFile = join(root, 'tsconfig.json');
  const roots = layerFolders.filter((folder) => existsSync(join(root, folder)));
  const cruised = await cruise(
    roots,
    // baseDir: rule paths (`^pipeline/`) and resolution are relative to the cruised tree, not the cwd.
    { ...options, baseDir: root, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  const result = cruised.output as ICruiseResult;
  const formatted = await format(result, { outputType: 'err-long' });
  return {
    violations: result.summary.violations,
    text: String(formatted.output),
    modulesCruised: result.summary.totalCruised,
    dependenciesCruised: result.summary.totalDependenciesCruised ?? 0,
  };
}
