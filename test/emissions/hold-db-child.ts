/** Child process for the lock test: opens the emissions database, says so, holds it, then closes. */
import { openEmissionsDb } from '../../pipeline/emissions/emissions-db.js';

const [path, holdMs] = process.argv.slice(2);
const db = await openEmissionsDb(path!);
process.stdout.write('held\n');
await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
db.close();
