// The check every log refusal test makes: opening fails with the expected error, and the file is
// left byte for byte as it was.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { openSession } from "../../src/session/open.ts";

/** Opening `at` fails with `pattern`, and leaves the file as it was. */
export async function refused(at: string, pattern: RegExp): Promise<void> {
  const before = readFileSync(at);
  await expect(openSession(at)).rejects.toThrow(pattern);
  expect(readFileSync(at).equals(before)).toBe(true);
}
