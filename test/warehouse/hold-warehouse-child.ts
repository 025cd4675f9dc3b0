/**
 * Child process for the lock tests: opens the warehouse as `sbm collect` does (writable, `write`) or as an
 * analyst's session does (`read`), says so, holds it, then closes.
 */
import { openWarehouse } from '../../pipeline/warehouse/open-warehouse.js';

const [path, mode, holdMs] = process.argv.slice(2);
const warehouse = await openWarehouse(path!, { readOnly: mode === 'read' });
process.stdout.write('held\n');
await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
warehouse.close();
