// Reading a session log's complete lines from a byte offset, and writing lines durably. A last
// line without its newline is a write cut short (the writer was killed): it is reported as torn
// and never read as data; the next writer sets it aside (log-state.ts) before writing after it.

import { fstatSync, fsyncSync, readSync, writeSync } from "node:fs";

/** The complete lines from an offset, and a torn tail if the file ends without a newline. */
export interface Chunk {
  readonly lines: readonly string[];
  /** byte offset just after the last complete line */
  readonly end: number;
  /** byte length of the torn tail (0: the file ends with a newline) */
  readonly tornBytes: number;
}

/** Reads every complete line of the open file `fd` from byte `from` to its end. */
export function readChunk(fd: number, from: number): Chunk {
  const size = fstatSync(fd).size;
  if (size <= from) return { lines: [], end: from, tornBytes: 0 };
  const buf = Buffer.alloc(size - from);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    // a newline byte never occurs inside a UTF-8 sequence: splitting the bytes is safe
    const nl = buf.indexOf(0x0a, at);
    if (nl < 0 || nl >= got) break;
    lines.push(buf.toString("utf8", at, nl));
    at = nl + 1;
  }
  return { lines, end: from + at, tornBytes: got - at };
}

/** Appends `text` to the open append-mode file `fd` and waits until it is on disk. */
export function writeDurably(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
  fsyncSync(fd);
}
