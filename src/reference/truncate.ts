// Reference for src/kernel/truncate.ts: try every count, from the largest down.

function bytesOf(lens: readonly number[]): number {
  // Lines joined by "\n": lengths plus one separator between neighbours.
  return lens.length === 0 ? 0 : lens.reduce((x, y) => x + y, 0) + lens.length - 1;
}

/** Plain reference of joinedBytes. */
export function joinedBytes(lineBytes: readonly number[], a: number, b: number): number {
  return bytesOf(lineBytes.slice(a, b));
}

/** Plain reference of keepHeadLines. */
export function keepHeadLines(lineBytes: readonly number[], maxLines: number, maxBytes: number): number {
  for (let k = Math.min(lineBytes.length, maxLines); k > 0; k--) {
    if (bytesOf(lineBytes.slice(0, k)) <= maxBytes) return k;
  }
  return 0;
}

/** Plain reference of keepTailLines. */
export function keepTailLines(lineBytes: readonly number[], maxLines: number, maxBytes: number): number {
  for (let k = Math.min(lineBytes.length, maxLines); k > 0; k--) {
    if (bytesOf(lineBytes.slice(lineBytes.length - k)) <= maxBytes) return k;
  }
  return 0;
}
