import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderObjectStore } from '../../pipeline/store/folder-store.js';
import { openObjectStore, parseStoreUrl } from '../../pipeline/store/open-object-store.js';
import { S3ObjectStore } from '../../pipeline/store/s3-store.js';
import { UnsupportedStoreUrlError } from '../../pipeline/store/store-errors.js';

const s3 = { endpoint: undefined, region: 'us-east-1', forcePathStyle: false };
const folder = await mkdtemp(join(tmpdir(), 'sbm-open-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('parseStoreUrl', () => {
  it('reads folder URLs: relative, absolute and file:///', () => {
    expect(parseStoreUrl('file:./data/snapshots', '/srv/app')).toEqual({
      kind: 'folder',
      root: '/srv/app/data/snapshots',
    });
    expect(parseStoreUrl('file:data/snapshots', '/srv/app')).toEqual({
      kind: 'folder',
      root: '/srv/app/data/snapshots',
    });
    expect(parseStoreUrl('file:../shared/snaps', '/srv/app')).toEqual({
      kind: 'folder',
      root: '/srv/shared/snaps',
    });
    expect(parseStoreUrl('file:/var/lib/sbm/', '/srv/app')).toEqual({ kind: 'folder', root: '/var/lib/sbm' });
    expect(parseStoreUrl('file:///var/lib/sbm%20data', '/srv/app')).toEqual({
      kind: 'folder',
      root: '/var/lib/sbm data',
    });
  });

  it('reads s3 URLs into a bucket and a key prefix ending in "/"', () => {
    expect(parseStoreUrl('s3://my-bucket')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '' });
    expect(parseStoreUrl('s3://my-bucket/')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '' });
    expect(parseStoreUrl('s3://my.bucket/sbm/prod')).toEqual({
      kind: 's3',
      bucket: 'my.bucket',
      prefix: 'sbm/prod/',
    });
    expect(parseStoreUrl('s3://my-bucket//sbm//prod/')).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      prefix: 'sbm/prod/',
    });
  });

  it('refuses anything else with an error that names the accepted forms', () => {
    for (const url of [
      '',
      'data/snapshots',
      'http://example.com/x',
      'gs://bucket/x',
      'S3://bucket',
      'file:',
    ]) {
      expect(() => parseStoreUrl(url), url).toThrow(UnsupportedStoreUrlError);
    }
    expect(() => parseStoreUrl('ftp://x')).toThrow(/file:<folder>.*s3:\/\/<bucket>/);
    expect(() => parseStoreUrl('file://otherhost/x')).toThrow(UnsupportedStoreUrlError);
    expect(() => parseStoreUrl('s3://Bad_Bucket/x')).toThrow(/bucket/);
    expect(() => parseStoreUrl('s3://ok-bucket/a/../b')).toThrow(UnsupportedStoreUrlError);
  });
});

describe('openObjectStore', () => {
  it('opens a folder store that writes where the URL points', async () => {
    const store = openObjectStore(pathToFileURL(folder).href, s3);
    expect(store).toBeInstanceOf(FolderObjectStore);
    await store.put('a/b.json', new TextEncoder().encode('{"b":1}'), 'application/json');
    expect(await readFile(join(folder, 'a', 'b.json'), 'utf8')).toBe('{"b":1}');
    expect(openObjectStore(`file:${folder}`, s3).description).toBe(`folder ${folder}`);
  });

  it('opens an S3 store for s3:// URLs without contacting the server', async () => {
    const store = openObjectStore('s3://my-bucket/sbm', { ...s3, endpoint: 'http://127.0.0.1:9' });
    expect(store).toBeInstanceOf(S3ObjectStore);
    expect(store.description).toBe('s3://my-bucket/sbm/ at http://127.0.0.1:9');
    await store.close();
  });
});
