// A token counter for tests that says how much it counted: the character heuristic
// (ceil(chars / 4)) in an object of its own, so every message goes through `count` (the shared
// character counter is recognized and counted without a call).
import type { TokenCounter } from "../../src/model/tokens.ts";

/** A character counter that counts its calls. */
export function countingCounter(): TokenCounter & { calls: number } {
  const c = {
    name: "chars" as const,
    calls: 0,
    count(text: string) {
      c.calls++;
      return Math.ceil(text.length / 4);
    },
  };
  return c;
}
