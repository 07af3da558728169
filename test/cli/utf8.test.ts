// Strict UTF-8 input for the CLI: the locator agrees with TextDecoder's fatal mode on arbitrary
// bytes, the error names the line and byte, a UTF-8 BOM is accepted, and stdin is held to the
// same rule as a file (exit 1, nothing on stdout).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8, findUtf8Fault } from "../../src/cli/utf8.ts";
import { InputError } from "../../src/model/errors.ts";
import { runInProcess, runProcess, tempDir } from "../support/cli-run.ts";

const strict = (b: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

const conversation = (userBytes: Uint8Array): Buffer =>
  Buffer.concat([
    Buffer.from('{"role":"system","content":"sys"}\n{"role":"user","content":"bin '),
    userBytes,
    Buffer.from(' data"}\n{"role":"assistant","content":"ok"}\n'),
  ]);

describe("finding where bytes stop being UTF-8", () => {
  // bytes drawn mostly from the interesting ranges (leads, continuations, never-valid bytes)
  const interesting = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0xbf }),
    fc.integer({ min: 0xc0, max: 0xff }),
    fc.constantFrom(0xe0, 0xed, 0xf0, 0xf4, 0xa0, 0x9f, 0x90, 0x8f),
  );

  it("agrees with TextDecoder's fatal mode on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.array(interesting, { maxLength: 12 }), (arr) => {
        const bytes = Uint8Array.from(arr);
        expect(findUtf8Fault(bytes) === undefined).toBe(strict(bytes));
      }),
      { numRuns: 20_000 },
    );
  });

  it("points at the first ill-formed sequence: everything before it decodes", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.array(interesting, { minLength: 1, maxLength: 6 }),
        (good, tail) => {
          const bytes = Uint8Array.from([...new TextEncoder().encode(good), ...tail]);
          const fault = findUtf8Fault(bytes);
          if (fault === undefined) return;
          expect(fault.offset).toBeGreaterThanOrEqual(new TextEncoder().encode(good).length);
          expect(strict(bytes.subarray(0, fault.offset))).toBe(true);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("accepts every well-formed string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        expect(findUtf8Fault(new TextEncoder().encode(s))).toBeUndefined();
      }),
    );
  });
});

describe("decoding the CLI's input", () => {
  it("names the line and the byte of the first bad byte, and why", () => {
    const bytes = conversation(Uint8Array.from([0xff, 0xfe]));
    let err: unknown;
    try {
      decodeUtf8(bytes, "binary.jsonl");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).path).toBe("line 2");
    expect((err as InputError).message).toMatch(
      /^line 2: not valid UTF-8 at byte 31 of the line \(byte 65 of binary\.jsonl\): byte 0xFF never appears in UTF-8/,
    );
  });

  it("says when a file looks like UTF-16", () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("[]", "utf16le")]);
    expect(() => decodeUtf8(bytes, "f.json")).toThrow(/line 1: not valid UTF-8 at byte 1 .*UTF-16 byte order mark/);
  });

  it("keeps a leading UTF-8 byte order mark (for the writer to put back) and everything else", () => {
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x5b, 0x5d]), "f.json")).toBe("\uFEFF[]");
    expect(decodeUtf8(new TextEncoder().encode("héllo \u{1F600}"), "f.json")).toBe("héllo \u{1F600}");
  });

  it("a file with a UTF-8 BOM compacts normally and is written back with it", async () => {
    const dir = tempDir();
    const file = join(dir, "bom.jsonl");
    const body = conversation(new TextEncoder().encode("é"));
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]));
    const r = await runInProcess(["compact", file, "--tokenizer", "chars"], { cwd: dir, env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("bin é data");
    expect(r.stdout.charCodeAt(0)).toBe(0xfeff);
    expect(r.stdout.indexOf("\uFEFF", 1)).toBe(-1);
  });

  it("invalid UTF-8 on stdin (a real process): exit 1, an error naming stdin, nothing written", async () => {
    const dir = tempDir();
    const bytes = conversation(Uint8Array.from([0xc3, 0x28]));
    const r = await runProcess(["compact", "-", "--tokenizer", "chars"], { cwd: dir, stdin: bytes, env: {} });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^safecut: error: line 2: not valid UTF-8 at byte 31 of the line \(byte 65 of stdin\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  }, 30_000);

  it("the input file is never rewritten, valid or not", async () => {
    const dir = tempDir();
    const file = join(dir, "bad.jsonl");
    const bytes = conversation(Uint8Array.from([0xed, 0xa0, 0x80])); // an encoded surrogate
    writeFileSync(file, bytes);
    const r = await runInProcess(["compact", file, "--tokenizer", "chars", "-o", join(dir, "out.jsonl")], {
      cwd: dir,
      env: {},
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not valid UTF-8/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(() => readFileSync(join(dir, "out.jsonl"))).toThrow();
  });
});
