// Golden case: spec operators ==> <==> forall exists equal \result, multi-line continued specs,
// //@ assert, //@ use of a lemma from the proof companion, //@ extern, and spec calls to
// function-translated code and to companion functions.
// Its arithmetic is trusted to stay exact (the number model has its own probes):
//@ unbounded-numbers

//@ extern
//@ requires n >= 0
//@ ensures \result >= n
export function roundUpToPage(n: number): number {
  return Math.ceil(n / 4096) * 4096;
}

//@ verify
//@ ensures \result <==> (exists(k: nat, k < xs.length && xs[k] === v))
export function contains(xs: readonly number[], v: number): boolean {
  let i = 0;
  while (i < xs.length) {
    //@ invariant 0 <= i && i <= xs.length
    //@ invariant forall(k: nat, k < i ==> xs[k] !== v)
    if (xs[i] === v) return true;
    i++;
  }
  return false;
}

//@ verify
//@ requires forall(k: nat, k < xs.length ==> xs[k] >= 0)
//@ ensures \result >= 0 &&
//@   \result === Total(xs) &&
//@   (xs.length === 0 ==> \result === 0)
export function total(xs: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    //@ invariant 0 <= i && i <= xs.length
    //@ invariant s === Total(xs.slice(0, i))
    //@ invariant s >= 0
    //@ use TotalSnoc(xs.slice(0, i), xs[i])
    //@ assert equal(xs.slice(0, i + 1).slice(0, i), xs.slice(0, i))
    s += xs[i];
  }
  //@ assert equal(xs.slice(0, xs.length), xs)
  return s;
}

//@ verify
//@ ensures n >= 0 ==> \result === roundUpToPage(n)
export function page(n: number): number {
  if (n < 0) return n;
  return roundUpToPage(n);
}

//@ verify
//@ ensures isPositive(n) ==> n > 0
export function isPositive(n: number): boolean {
  return n > 0;
}
