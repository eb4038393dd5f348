/**
 * A 32-bit hash of a string: FNV-1a over UTF-16 code units, then MurmurHash3's finalizer so that
 * low and high bits are both well mixed (close inputs spread). Not cryptographic: for spreading
 * (embedding buckets, choosing a key's owner), never for secrets.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
