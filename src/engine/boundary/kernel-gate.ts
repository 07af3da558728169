// The engine's only door into the kernel. Every kernel decision the engine uses is called
// here, after checking the function's `//@ requires` at runtime with the guard generated from
// them (kernel-requires.ts): the proofs hold only for inputs that satisfy them, so a violation
// is a clear error, never an unproven path. Stateless: it keeps nothing between calls and
// changes nothing it is given; it knows the kernel's types, not the store's.
//
// This file holds no code: it re-exports the gate's three stage files, so that callers name one
// door. kernel-gate-trigger.ts: is it due, the retention cut, the settings' checks.
// kernel-gate-plan.ts: pairing, stretches, clearing, batches, calls, aging. kernel-gate-commit.ts:
// the splice, acceptance and the stop rule, the low-water rule, the commit decisions, the watermark.

export * from "./kernel-gate-commit.ts";
export * from "./kernel-gate-plan.ts";
export * from "./kernel-gate-trigger.ts";
