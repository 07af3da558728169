// A conversation file that is not valid UTF-8 (JSON must be, RFC 8259 §8.1), e.g. an agent that
// pasted raw bytes of a binary file into a message. Reading it as UTF-8 replaces each bad byte by
// U+FFFD, so a user message would come out altered while the report says "L2 ok": the law checks
// compare the already-altered text with itself. The CLI must refuse such input with a clear error
// naming the place, or keep the bytes; it may not rewrite a user message. Before the CLI decoded
// strictly (src/cli/utf8.ts) this exited 0 and wrote bytes 0xFF 0xFE of the user message back as
// EF BF BD EF BF BD.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";

describe("a conversation file that is not valid UTF-8", () => {
  it("is refused with an error naming the encoding problem, and the file is untouched", async () => {
    const dir = tempDir();
    const file = join(dir, "binary.jsonl");
    const bytes = Buffer.concat([
      Buffer.from('{"role":"system","content":"sys"}\n{"role":"user","content":"bin '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' data"}\n{"role":"assistant","content":"ok"}\n'),
    ]);
    writeFileSync(file, bytes);
    const r = await runInProcess(["compact", file, "--tokenizer", "chars"], { cwd: dir, env: {} });
    expect(readFileSync(file).equals(bytes)).toBe(true);
    // never a rewritten user message on stdout
    expect(r.stdout).not.toContain("\uFFFD");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/UTF-8/i);
  });
});
