import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeBytes, fsPath, hasRawBytes } from '../../src/git/path-bytes.js';

describe('file names as bytes', () => {
  it('keeps UTF-8 names as they are', () => {
    const name = 'src/ünï cødé 😀\nname.ts';
    expect(decodeBytes(Buffer.from(name))).toBe(name);
    expect(hasRawBytes(name)).toBe(false);
    expect(fsPath(name)).toBe(name);
  });

  it('round-trips bytes that are not UTF-8, each kept apart from the others', () => {
    const samples = [[0x66, 0xff, 0x2e, 0x6a, 0x73], [0x66, 0xfe, 0x2e, 0x6a, 0x73], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98, 0x80, 0x80], [0x61, 0x00, 0xff]];
    const decoded = samples.map((bytes) => decodeBytes(Buffer.from(bytes)));
    expect(new Set(decoded).size).toBe(samples.length);
    samples.forEach((bytes, index) => {
      const name = decoded[index] ?? '';
      expect(encodeBytes(name)).toEqual(Buffer.from(bytes));
      expect(JSON.parse(JSON.stringify(name))).toBe(name);
    });
    expect(hasRawBytes(decoded[0] ?? '')).toBe(true);
    expect(fsPath(decoded[0] ?? '')).toEqual(Buffer.from(samples[0] ?? []));
  });

  it('a character outside the BMP whose low half looks like an escaped byte is not one', () => {
    const name = String.fromCodePoint(0x10080);
    expect(hasRawBytes(name)).toBe(false);
    expect(encodeBytes(name)).toEqual(Buffer.from(name));
  });
});
