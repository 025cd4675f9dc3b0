import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';
import { assertValidKey, assertValidPrefix } from './object-key.js';
import type { ObjectStore } from './object-store.js';
import { ObjectStoreError } from './store-errors.js';

/** S3's own cap per ListObjectsV2 page and per DeleteObjects request. */
const S3_MAX_BATCH = 1000;

export interface S3StoreOptions {
  bucket: string;
  /** Prepended to every key; empty or ending in `/`. */
  prefix: string;
  settings: S3Settings;
  /** Explicit credentials; when absent the SDK's default chain (environment, profile, instance role) applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Keys per list page (at most 1,000); smaller pages exercise pagination cheaply. */
  pageSize?: number;
}

/**
 * An object store in an S3-compatible bucket (AWS, Ceph RADOS Gateway, R2, ...). Each PUT replaces the
 * whole object atomically, which is all that `publication.ts` needs.
 */
export class S3ObjectStore implements ObjectStore {
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly pageSize: number;

  constructor(options: S3StoreOptions) {
    if (options.prefix !== '' && !options.prefix.endsWith('/')) {
      throw new ObjectStoreError(`S3 key prefix must be empty or end in "/": "${options.prefix}"`);
    }
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.pageSize = Math.min(Math.max(1, options.pageSize ?? S3_MAX_BATCH), S3_MAX_BATCH);
    const endpoint = options.settings.endpoint;
    this.description = `s3://${this.bucket}/${this.prefix}${endpoint ? ` at ${endpoint}` : ''}`;
    this.client = new S3Client({
      region: options.settings.region,
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: options.settings.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // The SDK's default adds CRC32 trailers to every upload (aws-chunked encoding): radosgw answers 411
      // and s3rver stores the chunk framing as the object's bytes. Only send checksums where S3 demands them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.call(`write "${key}"`, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.byteLength,
        }),
      ),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    assertValidKey(key);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }),
      );
      if (!response.Body) return new Uint8Array();
      return await response.Body.transformToByteArray();
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.wrap(`read "${key}"`, error);
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertValidPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.call(`list "${prefix}"`, () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            MaxKeys: this.pageSize,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) keys.push(object.Key.slice(this.prefix.length));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key);
    for (let start = 0; start < keys.length; start += S3_MAX_BATCH) {
      const batch = keys.slice(start, start + S3_MAX_BATCH);
      const result = await this.call(`delete ${batch.length} objects`, () =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((key) => ({ Key: this.prefix + key })), Quiet: true },
          }),
        ),
      );
      // DeleteObjects answers 200 even when single deletions fail; they are listed in Errors.
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new ObjectStoreError(
          `${this.description}: ${failed.length} deletions failed, first "${first?.Key}": ${first?.Code} ${first?.Message}`,
        );
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async call<T>(what: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw this.wrap(what, error);
    }
  }

  private wrap(what: string, error: unknown): ObjectStoreError {
    const detail =
      error instanceof S3ServiceException
        ? `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'}): ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    return new ObjectStoreError(`${this.description}: cannot ${what}: ${detail}`, { cause: error });
  }
}

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  return (
    error instanceof S3ServiceException &&
    error.$metadata.httpStatusCode === 404 &&
    error.name !== 'NoSuchBucket'
  );
}
