/**
 * `POST /tax/orders/{id}/records?t=`: the buyer adds their own records, addresses and opening pools to a
 * paid order, and the fulfilment job builds a revised pack at no charge.
 *
 * The upload is read and checked whole before anything is stored: the declared length first (a body
 * over the limit is refused before a byte of it is read), then the body read with a running count (a
 * body without a length is cut off at the limit), then every file with `readCustomerFiles` on top of
 * what the order already has. Any problem: a 4xx listing each (file, line, column, reason), and the
 * store and the state are as before. Accepted: the files are stored under the order's key prefix (named
 * by a random upload id, never by the buyer's file name), then one conditional INSERT makes the next
 * version, pending; a crash between the two leaves objects no row names, deleted with the order's pack.
 *
 * Nothing of the upload is logged: the request log has the route pattern only, and no alert or error
 * carries a file's name, content or the token.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ObjectStore } from '../../pipeline/store/object-store.js';
import {
  CustomerInputsRejected,
  type InputProblem,
  type UploadedFile,
} from '../../pipeline/tax/products/own-records/customer-inputs.js';
import {
  MAX_UPLOAD_TOTAL_BYTES,
  readCustomerFiles,
} from '../../pipeline/tax/products/own-records/read-customer-files.js';
import { HttpError } from '../http/http-errors.js';
import { jsonResponse } from '../http/responses.js';
import { isSameOrigin } from '../http/same-origin.js';
import { orderView } from '../orders/order-view.js';
import { uploadKeyFor } from '../orders/pack-key.js';
import { storedCustomerInputs } from '../orders/revision-inputs.js';
import type { GatewayRequest } from '../request-context.js';
import type { GatewayState } from '../state/gateway-state.js';
import { type OrderRecord, type RevisionFile, takesUploads } from '../state/order-state.js';

/** The whole request body: every file of one upload together, and room for the form's own lines. */
export const MAX_RECORDS_BODY = MAX_UPLOAD_TOTAL_BYTES + 256 * 1024;

/** The names a typed-in field's file takes (the form's text boxes): shown on the page and in the PDF. */
export const TYPED_ADDRESSES = 'addresses (typed in)';
export const TYPED_OPENING = 'opening pools (typed in)';
/** The file an address marked as the buyer's from its point to check becomes, and the label it gets. */
export const MARKED_ADDRESS = 'address marked as yours';
export const MARKED_LABEL = 'marked as yours from its point to check';
/** An SS58 address's characters and length (base58): anything else is refused before it is read. */
const SS58_TEXT = /^[1-9A-HJ-NP-Za-km-z]{40,60}$/;

const ROLES = new Set<string>(['records', 'addresses', 'opening']);

/** Refused files: the problems, each of them, with the 4xx they give. */
export class UploadRefused extends Error {
  override name = 'UploadRefused';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly problems: InputProblem[],
  ) {
    super(detail);
  }
}

export interface RecordsUploadDeps {
  state: GatewayState;
  store: ObjectStore;
  now: () => Date;
  baseUrl: string;
  token: string;
  onError: (error: unknown) => void;
}

/**
 * The upload's outcome for an order the token opened. Throws `HttpError` (403, 409, 413, 415, 400) or
 * `UploadRefused` (422, with the problems); stores nothing unless it returns.
 */
export async function acceptRecordsUpload(
  deps: RecordsUploadDeps,
  request: GatewayRequest,
  order: OrderRecord,
) {
  const headers = request.ctx.requestHeaders;
  // A browser names where the form came from; a script (curl -F) sends neither header and holds the
  // token, which is the credential here (no cookie rides along), so it may post.
  if (
    (headers.get('origin') || headers.get('referer')) &&
    !isSameOrigin(headers, request.url, deps.baseUrl)
  ) {
    throw new HttpError(
      403,
      'Cross-origin request refused: records are added from the order page on this site.',
    );
  }
  if (!takesUploads(order, deps.now())) throw new HttpError(409, notOpenDetail(order));
  const files = await readUploadForm(request);

  const revisions = await deps.state.orders.listRevisions(order.id);
  let previous: Awaited<ReturnType<typeof storedCustomerInputs>>;
  try {
    previous = await storedCustomerInputs(deps.store, revisions);
  } catch (error) {
    // The service's fault, not the buyer's (a stored file missing or refused now): say so, keep nothing.
    deps.onError(new Error(`order ${order.id}: its stored uploads cannot be read (${describeKind(error)})`));
    throw new HttpError(503, 'Your earlier files cannot be read right now; please try again later.', {
      'Retry-After': '300',
    });
  }
  let inputs: ReturnType<typeof readCustomerFiles>;
  try {
    inputs = readCustomerFiles(files, previous);
  } catch (error) {
    if (!(error instanceof CustomerInputsRejected)) throw error;
    throw new UploadRefused(
      422,
      `Your files were not added: ${error.problems.length === 1 ? 'one problem' : `${error.problems.length} problems`} (listed in problems). Nothing of this upload was kept; correct the file and add it again.`,
      error.problems,
    );
  }
  const added = inputs.files.slice(previous.files.length);
  const uploadId = randomBytes(8).toString('hex');
  const stored: RevisionFile[] = files.map((file, index) => {
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    const read = added.find((f) => f.sha256 === sha256);
    if (!read) throw new Error('an accepted file is missing from what the reader returned');
    return {
      name: read.name,
      sha256,
      rows: read.rows,
      role: file.role,
      key: uploadKeyFor(order.id, uploadId, index + 1),
      bytes: file.bytes.byteLength,
    };
  });
  for (const [index, file] of files.entries()) {
    await deps.store.put(stored[index]!.key, file.bytes, 'text/csv; charset=utf-8');
  }
  const result = await deps.state.orders.addRevision({
    orderId: order.id,
    createdAt: deps.now(),
    files: stored,
  });
  if (result.outcome !== 'added') {
    // The order stopped taking uploads while these were read (its pack expired): keep nothing.
    await deps.store.delete(stored.map((file) => file.key));
    throw new HttpError(409, result.outcome === 'not-open' ? notOpenDetail(result.order) : 'Unknown order.');
  }
  const all = [...revisions, result.revision];
  return { revision: result.revision, view: orderView(order, deps.baseUrl, deps.token, all, deps.now()) };
}

/** Why an order takes no records now, for the 409. */
export function notOpenDetail(order: OrderRecord): string {
  if (order.status === 'created') return 'The order is not paid yet: records can be added once it is paid.';
  return `The pack was deleted (packs are kept ${order.retentionDays} days after fulfilment${order.packExpiresAt ? `, until ${order.packExpiresAt.toISOString()}` : ''}): records can no longer be added to this order.`;
}

/**
 * The form's files: `records` (files), `addresses` (typed text or a file), `opening` (a file, or typed),
 * `own_address` (one address, from its point to check: an addresses file of one row). Empty fields (a file input left empty, a blank text box) are skipped.
 */
async function readUploadForm(request: GatewayRequest): Promise<UploadedFile[]> {
  const headers = request.ctx.requestHeaders;
  const type = headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new HttpError(
      415,
      'Send the files as multipart/form-data: fields records (CSV files), addresses (text or a file) and opening (a file), e.g. curl -F records=@trades.csv.',
    );
  }
  const declared = headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_RECORDS_BODY) throw new HttpError(413, tooLargeDetail());
  const body = await readLimited(request, MAX_RECORDS_BODY);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new HttpError(400, 'The request body is not a readable multipart/form-data form.');
  }
  const files: UploadedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (field === 'own_address') {
      // A point's "This address is mine": one address, as an addresses file of one row, read and checked
      // with the rest of the upload like a typed-in list.
      const address = typeof value === 'string' ? value.trim() : '';
      if (!SS58_TEXT.test(address)) {
        throw new HttpError(400, 'own_address must be one Bittensor address (SS58), as the point names it.');
      }
      files.push({
        name: MARKED_ADDRESS,
        bytes: new TextEncoder().encode(`address,label\r\n${address},${MARKED_LABEL}\r\n`),
        role: 'addresses',
      });
      continue;
    }
    if (!ROLES.has(field)) {
      throw new HttpError(
        400,
        'Unknown form field: the fields are records, addresses, opening and own_address.',
      );
    }
    const role = field as UploadedFile['role'];
    if (typeof value === 'string') {
      if (value.trim() === '') continue;
      if (role === 'records') throw new HttpError(400, 'records must be files (CSV), not text.');
      files.push({
        name: role === 'addresses' ? TYPED_ADDRESSES : TYPED_OPENING,
        bytes: new TextEncoder().encode(value),
        role,
      });
    } else {
      if (value.name === '' && value.size === 0) continue;
      files.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()), role });
    }
  }
  if (files.length === 0) {
    throw new HttpError(400, 'No file was given: choose a file of records, or type your addresses.');
  }
  return files;
}

/** The body, read with a running count: past `limit` bytes the reading stops and the answer is 413. */
async function readLimited(request: GatewayRequest, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw new HttpError(413, tooLargeDetail());
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, 'The request body could not be read to its end.');
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** An error's kind only: a reader's message quotes the buyer's file names and cells. */
function describeKind(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

function tooLargeDetail(): string {
  return `The upload is too large: at most ${MAX_UPLOAD_TOTAL_BYTES / 1048576} MiB of files at once (add them in turn). Nothing was kept.`;
}

/** The 422's JSON body: the detail and each problem. */
export function refusedResponse(error: UploadRefused, headers: Record<string, string>): Response {
  return jsonResponse({ detail: error.detail, problems: error.problems }, error.status, {
    ...headers,
    'cache-control': 'private, no-store',
  });
}
