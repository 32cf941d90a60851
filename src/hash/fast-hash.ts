/**
 * A 64-bit non-cryptographic hash (two 32-bit lanes, cyrb53-style) as 16 hex digits. The hot
 * path fingerprints files and ids with it instead of node:crypto, whose loading alone costs more
 * than a whole no-change stop may spend.
 */
export function fastHash(data: Uint8Array | string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  if (typeof data === 'string') {
    for (let i = 0; i < data.length; i++) {
      const code = data.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, 2654435761);
      h2 = Math.imul(h2 ^ code, 1597334677);
    }
  } else {
    for (let i = 0; i < data.length; i++) {
      const byte = data[i] ?? 0;
      h1 = Math.imul(h1 ^ byte, 2654435761);
      h2 = Math.imul(h2 ^ byte, 1597334677);
    }
  }
  const length = data.length;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909) ^ length;
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}
