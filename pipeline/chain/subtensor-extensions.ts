/**
 * Subtensor's own signed (transaction) extensions, declared to @polkadot/types. Without them every
 * registry built from subtensor metadata logs `REGISTRY: Unknown signed extensions ... treating them as
 * no-effect` on stderr. Pass this object to `registry.setMetadata(metadata, undefined, ...)` and to
 * `ApiPromise.create({ signedExtensions })`; every registry the project builds uses this one definition.
 *
 * What the two shipped runtimes name (read from their metadata, `extrinsic.transactionExtensions`):
 * - spec 343 (metadata v15): SubtensorTransactionExtension, DrandPriority
 * - spec 393 (metadata v16): SudoTransactionExtension, CheckShieldedTxValidity,
 *   SubtensorTransactionExtension, DrandPriority
 * - spec 233 (metadata v15, dTAO's launch): SubtensorSignedExtension, CommitmentsSignedExtension (explicit
 *   type an empty struct, implicit `()`)
 * In all, each one's explicit type (`type`) and implicit type (`additionalSigned` / `implicit`) is `()`:
 * they add no bytes to an extrinsic or to its signing payload, so "no extra fields" is their exact
 * shape, not a guess. A future runtime that gives one of them data must be declared here with its types.
 */
import type { ExtDef, ExtInfo } from '@polkadot/types/extrinsic/signedExtensions/types';

const NO_FIELDS: ExtInfo = { extrinsic: {}, payload: {} };

export const SUBTENSOR_SIGNED_EXTENSIONS: ExtDef = {
  SudoTransactionExtension: NO_FIELDS,
  CheckShieldedTxValidity: NO_FIELDS,
  SubtensorTransactionExtension: NO_FIELDS,
  DrandPriority: NO_FIELDS,
  SubtensorSignedExtension: NO_FIELDS,
  CommitmentsSignedExtension: NO_FIELDS,
};
