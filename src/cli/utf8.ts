// Strict UTF-8 decoding of the CLI's input. JSON text must be UTF-8 (RFC 8259 §8.1); decoding
// leniently would replace each bad byte by U+FFFD, so a user message would be written back altered
// while the law checks, which only ever see the decoded text, still say L2 holds. Input that is
// not UTF-8 is therefore refused, naming the place, and nothing is written.
import { constants } from "node:buffer";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { InputError, SafecutError } from "../model/errors.ts";

/** Where a byte sequence stops being UTF-8, and why. */
export interface Utf8Fault {
  /** 0-based offset of the first byte of the ill-formed sequence */
  readonly offset: number;
  readonly why: string;
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`;

/**
 * The first ill-formed sequence in `bytes`, or undefined if they are UTF-8. Follows the Unicode
 * "well-formed UTF-8 byte sequences" table (no overlong forms, no surrogates, nothing above
 * U+10FFFF), which is what `new TextDecoder("utf-8", { fatal: true })` accepts.
 */
export function findUtf8Fault(bytes: Uint8Array): Utf8Fault | undefined {
  const n = bytes.length;
  for (let i = 0; i < n; ) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // length of the sequence and the range its second byte must lie in (the rest are 80..BF)
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0; // else overlong
      if (b === 0xed) hi = 0x9f; // else a UTF-16 surrogate
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90; // else overlong
      if (b === 0xf4) hi = 0x8f; // else above U+10FFFF
    } else if (b >= 0x80 && b <= 0xbf)
      return { offset: i, why: `byte ${hex(b)} continues a character that never started` };
    else return { offset: i, why: `byte ${hex(b)} never appears in UTF-8` };
    for (let k = 1; k < len; k++) {
      if (i + k >= n) return { offset: i, why: `the input ends inside a ${len}-byte character` };
      const c = bytes[i + k];
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c < min || c > max)
        return { offset: i, why: `byte ${hex(b)} is followed by ${hex(c)}, which is not a valid continuation` };
    }
    i += len;
  }
  return undefined;
}

const MB = (n: number) => `${Math.round(n / 1e6)} MB`;

// A valid UTF-8 text too long for one JavaScript string: safecut reads a conversation whole.
function tooLong(bytes: number, source: string): SafecutError {
  return new SafecutError(
    "input",
    `${source} is ${MB(bytes)}, more characters than the longest string this JavaScript engine can hold ` +
      `(${constants.MAX_STRING_LENGTH.toLocaleString("en-US")}); safecut reads a conversation whole, so it cannot ` +
      "read this one: split it into smaller files (the bytes are valid UTF-8)",
  );
}

/**
 * Decodes `bytes` as strict UTF-8; a leading UTF-8 byte order mark is kept as U+FEFF (the
 * conversation reader sets it aside and the writer puts it back). Throws an InputError naming the line and byte of the first ill-formed
 * sequence in `source` (a file name, or "stdin"), or, for well-formed bytes too many for one
 * JavaScript string, an input error saying that.
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // TextDecoder does not say where; find the place ourselves (only on this error path).
    const found = findUtf8Fault(bytes);
    // well-formed, yet refused: the text is longer than the engine's longest string
    if (found === undefined && bytes.length > constants.MAX_STRING_LENGTH) throw tooLong(bytes.length, source);
    const fault = found ?? { offset: 0, why: "the decoder refused it" };
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < fault.offset; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const utf16 =
      bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
    const hint = utf16 ? "; it starts with a UTF-16 byte order mark: save it as UTF-8" : "";
    throw new InputError(
      `line ${line}`,
      `not valid UTF-8 at byte ${fault.offset - lineStart + 1} of the line (byte ${fault.offset + 1} of ${source}): ${fault.why}; ` +
        `JSON must be UTF-8 (RFC 8259 §8.1)${hint}`,
    );
  }
}

/** The text of `file` (relative to `cwd`), decoded strictly as UTF-8; a file that cannot be read is an input error. */
export function readUtf8File(file: string, cwd: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(resolve(cwd, file));
  } catch (e) {
    throw new SafecutError("input", `cannot read ${file}: ${(e as Error).message}`);
  }
  // strictly: a lenient decode would rewrite bad bytes in a user message as U+FFFD
  return decodeUtf8(bytes, file);
}
