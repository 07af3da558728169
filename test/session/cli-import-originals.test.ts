// `safecut session import` of a JSON array keeps each element's text as written: numbers are
// never re-serialized (a big integer, 1.0), on every backend.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess, tempDir } from "../support/cli-run.ts";
import { backends, removeFresh } from "./backends.ts";

afterAll(removeFresh);

describe("safecut session import of a JSON array", () => {
  it.each(backends)("stores each element's text as written: $name", async (backend) => {
    const cwd = tempDir();
    const at = backend.fresh();
    const a = '{"role":"user","content":"q","meta":{"id":12345678901234567890,"w":1.0,"e":"\\u00e9"}}';
    const b = '{"role":"assistant","content":"a","meta":{"n":-0.50E+3}}';
    writeFileSync(join(cwd, "conv.json"), `[\n  ${a},\n  ${b.replace(",", ",\n    ")}\n]\n`);
    let r = await runInProcess(["session", "import", "conv.json", "--to", at, "--format", "openai"], { cwd });
    expect(r.code, r.stderr).toBe(0);
    r = await runInProcess(["session", "show", at, "--full"], { cwd });
    expect(r.stdout).toBe(`${a}\n${b}\n`);
    r = await runInProcess(["session", "export", at], { cwd });
    expect(r.stdout).toBe(`${a}\n${b}\n`);
  });
});
