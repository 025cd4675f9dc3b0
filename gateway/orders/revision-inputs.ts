import type { ObjectStore } from '../../pipeline/store/object-store.js';
import {
  type CustomerInputs,
  EMPTY_CUSTOMER_INPUTS,
  type UploadedFile,
} from '../../pipeline/tax/products/own-records/customer-inputs.js';
import { readCustomerFiles } from '../../pipeline/tax/products/own-records/read-customer-files.js';
import type { OrderRevision } from '../state/order-state.js';

/**
 * The buyer's inputs as the given revisions add them up, read again from the stored bytes with the same
 * reader that accepted them (each revision's files on top of the ones before, as they were uploaded).
 * Rejected revisions are left out: their files were refused by the build and deleted. Superseded ones
 * (out of tries, a later version built in their place) are kept in: that later pack read their files. A stored file
 * that is missing is an error of the service (not of the buyer): it says which version, never which file.
 * Throws `CustomerInputsRejected` if the reader now refuses what it accepted.
 */
export async function storedCustomerInputs(
  store: ObjectStore,
  revisions: readonly OrderRevision[],
): Promise<CustomerInputs> {
  let inputs = EMPTY_CUSTOMER_INPUTS;
  for (const revision of revisions) {
    if (revision.status === 'rejected') continue;
    const files: UploadedFile[] = [];
    for (const file of revision.files) {
      const bytes = await store.get(file.key);
      if (!bytes)
        throw new Error(`order ${revision.orderId} version ${revision.version}: a stored upload is missing`);
      files.push({ name: file.name, bytes, role: file.role });
    }
    inputs = readCustomerFiles(files, inputs);
  }
  return inputs;
}
