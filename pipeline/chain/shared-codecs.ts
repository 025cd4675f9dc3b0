/**
 * One codec per runtime metadata in a process, shared by its chain readers. A codec costs 0.2–0.5 CPU s to
 * build (the metadata decoded, its storage and events expanded), and `sbm daily` reads the chain through
 * three readers in turn (the collection, the share pools, the publication's tax calendar), each of which built
 * its own codec of every runtime of the history: the demo's thirteen. A codec depends on its metadata alone,
 * so readers that fetch the same metadata get the same codec. It is held weakly: one that no reader uses any
 * more may be collected (and built again if asked for), so a long-running process does not keep them all.
 */
import { RuntimeCodec } from './runtime-codec.js';

const codecs = new Map<string, WeakRef<RuntimeCodec>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (codecs.get(key)?.deref() === undefined) codecs.delete(key);
});

/** The codec of `metadataHex` (served for `specVersion`), built once while any reader holds it. */
export function sharedCodec(specVersion: number, metadataHex: string): RuntimeCodec {
  const key = `${specVersion}:${metadataHex}`;
  const known = codecs.get(key)?.deref();
  if (known !== undefined) return known;
  const codec = new RuntimeCodec(specVersion, metadataHex);
  codecs.set(key, new WeakRef(codec));
  forget.register(codec, key);
  return codec;
}
