// Golden case: numbers and booleans, arithmetic, comparisons, Math.max/min/floor(a/b),
// conditional expressions, `//@ type x nat` on parameters, \result and a local, early
// return, if/else.
// Its arithmetic is trusted to stay exact (the number model has its own probes):
//@ unbounded-numbers

//@ verify
//@ type n nat
//@ type \result nat
//@ ensures \result <= n
export function half(n: number): number {
  return Math.floor(n / 2);
}

//@ verify
//@ ensures \result >= a && \result >= b
//@ ensures \result === a || \result === b
export function larger(a: number, b: number): number {
  return Math.max(a, b);
}

//@ verify
//@ requires lo <= hi
//@ ensures lo <= \result && \result <= hi
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}

//@ verify
export function sign(x: number): number {
  if (x > 0) return 1;
  if (x < 0) return -1;
  return 0;
}

//@ verify
export function between(x: number, lo: number, hi: number): boolean {
  const above = lo <= x;
  const below = x < hi;
  return above && below && !(x === hi) && x !== lo - 1;
}

//@ verify
//@ ensures \result >= 0
export function distance(a: number, b: number): number {
  let d = a - b;
  if (d < 0) {
    d = -d;
  } else {
    d = d * 1;
  }
  //@ type steps nat
  let steps = 0;
  steps += 2;
  steps -= 1;
  return d;
}

//@ verify
export function pick(flag: boolean, a: number, b: number): number {
  return flag ? a + 3 * b : (a - b) * (a + b);
}

// JavaScript's floor of the quotient, for divisors of either sign (Dafny's `/` is
// Euclidean: the floor only for positive divisors)
//@ verify
//@ requires b !== 0
//@ ensures b > 0 ==> \result * b <= a && a < (\result + 1) * b
//@ ensures b < 0 ==> \result * b >= a && a > (\result + 1) * b
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

//@ verify
//@ ensures \result * 4 <= a + 1
//@ ensures \result === Math.floor((a + 1) / 4) && (a > 0 ==> \result === floorDiv(a + 1, 4))
export function quarter(a: number): number {
  return Math.floor((a + 1) / 4);
}
