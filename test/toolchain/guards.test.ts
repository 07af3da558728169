// The runtime guards the kernel gate calls (src/engine/boundary/kernel-requires.ts) are generated
// from the kernel's `//@ requires` (src/toolchain/emit/guards-emit.ts, with the hand-written list
// guard-list.ts): the committed module is a fresh generation, a guard edited by hand is reported
// stale, a mutated `requires` changes the generated guard and what it lets through, and a clause
// the generator cannot translate must be named in the list.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { KernelBoundaryError } from "../../src/model/errors.ts";
import { GUARD_FILE, generateGuards, staleGuards, writeGuards } from "../../src/toolchain/emit/guards-emit.ts";
import { layout } from "../../src/toolchain/frontend/load.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const temps: string[] = [];

/** A copy of src/ under a fresh temporary root. */
function copyOfSrc(): string {
  const root = mkdtempSync(join(tmpdir(), "safecut-guards-"));
  temps.push(root);
  cpSync(join(ROOT, "src"), join(root, "src"), { recursive: true });
  return root;
}

afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

// selectStretch's window clause, as written in src/kernel/stretch.ts (the two lines above Pairing)
const WINDOW = "//@ requires window >= 1\n//@ requires Pairing(roles, callOf, lastAnswer, ongoing)\n//@ ensures";

type SelectGuard = (
  roles: readonly string[],
  callOf: readonly number[],
  lastAnswer: readonly number[],
  ongoing: readonly boolean[],
  window: number,
) => void;

describe("generated runtime guards", () => {
  it(`${GUARD_FILE} is a fresh generation (run: npm run docs)`, () => {
    expect(staleGuards(layout(ROOT))).toBeNull();
  });

  it("a guard edited by hand fails the stale check", () => {
    const root = copyOfSrc();
    const path = join(root, GUARD_FILE);
    const text = readFileSync(path, "utf8");
    const edited = text.replace('if (!(window >= 1)) fail("selectStretch"', 'if (!(window >= 0)) fail("selectStretch"');
    expect(edited).not.toBe(text);
    writeFileSync(path, edited);
    expect(staleGuards(layout(root))).toContain(`${GUARD_FILE} differs from a fresh generation`);
  });

  it("a mutated requires changes the generated guard and what it lets through", async () => {
    const root = copyOfSrc();
    const kernel = join(root, "src/kernel/stretch.ts");
    const source = readFileSync(kernel, "utf8");
    expect(source.split(WINDOW).length).toBe(2);
    writeFileSync(kernel, source.replace(WINDOW, WINDOW.replace("window >= 1", "window >= 2")));
    const before = generateGuards(layout(ROOT));
    const after = generateGuards(layout(root));
    expect(after).not.toBe(before);
    expect(after).toContain('if (!(window >= 2)) fail("selectStretch", "window >= 2");');
    expect(staleGuards(layout(root))).not.toBeNull();
    expect(writeGuards(layout(root))).toEqual([GUARD_FILE]);

    const views = [
      ["assistant", "user"],
      [-1, -1],
      [-1, -1],
      [false, false],
    ] as const;
    const fresh = (await import(pathToFileURL(join(ROOT, GUARD_FILE)).href)) as { guardSelectStretch: SelectGuard };
    const mutated = (await import(pathToFileURL(join(root, GUARD_FILE)).href)) as { guardSelectStretch: SelectGuard };
    expect(() => fresh.guardSelectStretch(...views, 1)).not.toThrow();
    expect(() => mutated.guardSelectStretch(...views, 1)).toThrow(
      "kernel boundary: selectStretch requires window >= 2",
    );
    // the copy's own KernelBoundaryError class: compared by name
    expect(() => mutated.guardSelectStretch(...views, 1)).toThrow(
      expect.objectContaining({ name: KernelBoundaryError.name, kind: "internal" }),
    );
    expect(() => mutated.guardSelectStretch(...views, 2)).not.toThrow();
  });

  it("a clause the generator cannot translate must be in the hand-written list", () => {
    const root = copyOfSrc();
    const kernel = join(root, "src/kernel/retention.ts");
    const source = readFileSync(kernel, "utf8");
    writeFileSync(
      kernel,
      source.replace(
        "//@ requires n >= 0 && window >= 1 && n <= 9007199254740991",
        "//@ requires n >= 0 && window >= 1 && n <= 9007199254740991\n//@ requires forall(k: nat, k < n ==> k >= 0)",
      ),
    );
    expect(() => generateGuards(layout(root))).toThrow(
      "retentionCutoff's precondition `forall(k: nat, k < n ==> k >= 0)` has no runtime translation: add its check to src/toolchain/emit/guard-list.ts",
    );
  });

  it("the hand-written list's checks stand in the guard for the clauses they name", () => {
    const text = generateGuards(layout(ROOT));
    // Pairing: checked by the kernel's own pairingOk unless the caller vouches for it
    expect(text).toContain(
      'if (!(vouched.Pairing === true || pairingOk(roles, callOf, lastAnswer, ongoing))) fail("selectStretch"',
    );
    // an exact-sum check added beyond the requires
    expect(text).toContain('if (!natsSumExactly(xs, 0, a, b)) fail("rangeTokens"');
    // a function whose precondition has no runtime counterpart gets no guard, and says so
    expect(text).toContain("// keptPrefixEnd: no guard");
    expect(text).not.toContain("guardKeptPrefixEnd");
    // a proof-only model (@model) gets none either: the engine never calls it
    expect(text).toContain("// proof-only models, never called by the engine (no guard): raceTwoPlans");
    expect(text).not.toContain("guardSelectAfterSplice");
    expect(text).not.toContain("guardCompactUntilStable");
  });
});
