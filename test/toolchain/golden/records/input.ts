// Golden case: records from interfaces and object type aliases, object literals (with
// shorthand fields, in any field order), field access, nested records, records in
// arrays, and a record reduced by //@ declare-type to the fields the proofs read.

//@ declare-type Message { tokens: nat; pinned: boolean }

export interface Span {
  from: number;
  to: number;
}

export type Window = {
  span: Span;
  sizes: readonly number[];
  open: boolean;
};

//@ verify
//@ requires from <= to
//@ ensures \result.to - \result.from === to - from
export function span(from: number, to: number): Span {
  return { to, from: from };
}

//@ verify
//@ ensures \result.span.from === 0
export function emptyWindow(): Window {
  const s: Span = { from: 0, to: 0 };
  return { span: s, sizes: [], open: false };
}

//@ verify
export function width(w: Window): number {
  return w.span.to - w.span.from + w.sizes.length;
}

//@ verify
//@ ensures \result.length === spans.length + 1
export function appendSpan(spans: readonly Span[], to: number): Span[] {
  const out = spans.slice(0);
  out.push({ from: 0, to });
  return out;
}

//@ verify
export function firstFrom(spans: readonly Span[]): number {
  if (spans.length === 0) return 0;
  return spans[0].from;
}
