// Golden case: arrays and readonly arrays: .length, indexing, push, element assignment,
// slice, array literals; `for` with `continue` (lowered away) and `break`, `while` with
// invariant and decreases.

//@ verify
//@ requires xs.length > 0
//@ ensures \result === xs[xs.length - 1]
export function last(xs: readonly number[]): number {
  return xs[xs.length - 1];
}

//@ verify
//@ requires 0 <= a && a <= b && b <= xs.length
//@ ensures \result.length === b - a
export function window(xs: ReadonlyArray<number>, a: number, b: number): number[] {
  return xs.slice(a, b);
}

//@ verify
//@ ensures \result.length <= xs.length
//@ ensures forall(k: nat, k < \result.length ==> \result[k] > 0)
export function positives(xs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    //@ invariant 0 <= i && i <= xs.length
    //@ invariant out.length <= i
    //@ invariant forall(k: nat, k < out.length ==> out[k] > 0)
    if (xs[i] <= 0) continue;
    out.push(xs[i]);
  }
  return out;
}

//@ verify
//@ ensures \result.length === xs.length
export function zeroNegatives(xs: number[]): number[] {
  const ys = xs.slice(0);
  let i = 0;
  while (i < ys.length) {
    //@ invariant 0 <= i && i <= ys.length
    //@ invariant ys.length === xs.length
    //@ decreases ys.length - i
    if (ys[i] < 0) {
      ys[i] = 0;
    }
    i += 1;
  }
  return ys;
}

//@ verify
//@ ensures -1 <= \result && \result < xs.length
export function lastIndexOf(xs: readonly number[], v: number): number {
  let found = -1;
  for (let i = xs.length - 1; i >= 0; i--) {
    //@ invariant -1 <= i && i < xs.length
    //@ invariant -1 <= found && found < xs.length
    if (xs[i] === v) {
      found = i;
      break;
    }
  }
  return found;
}

//@ verify
//@ ensures \result.length === 3
export function triple(a: number): number[] {
  return [a, a + 1, a + 2];
}

//@ verify
export function tail(xs: readonly boolean[]): boolean[] {
  if (xs.length === 0) return [];
  return xs.slice(1);
}
