// Golden case: calls between verified functions. A pure-shaped body becomes a Dafny
// `function` (callable anywhere, also from specs); any other body becomes a `method`,
// whose calls are hoisted only where Dafny allows them: the whole initializer of a
// declaration, the right side of an assignment, or a return value. A pure-shaped body
// that calls a method becomes a method itself. Generics <T> and recursion with decreases.

//@ verify
//@ ensures \result === x + 1
export function inc(x: number): number {
  return x + 1;
}

//@ verify
//@ ensures \result === x + 2
export function incTwice(x: number): number {
  return inc(inc(x));
}

//@ verify
//@ ensures \result === n
export function countUp(n: number): number {
  let i = 0;
  let c = 0;
  while (i < n) {
    //@ invariant i <= n || n < 0
    //@ invariant c === i
    c = inc(c);
    i++;
  }
  return n < 0 ? n : c;
}

//@ verify
//@ ensures \result === n + n
export function callsMethod(n: number): number {
  const a = countUp(n);
  let b = 0;
  b = countUp(n);
  if (a !== b) return countUp(a);
  return a + b;
}

//@ verify
export function pureButCallsMethod(n: number): number {
  const a = countUp(n);
  return a;
}

//@ verify
//@ requires xs.length > 0
export function first<T>(xs: readonly T[]): T {
  return xs[0];
}

//@ verify
//@ ensures \result.length === xs.length + 1
export function append<T>(xs: readonly T[], x: T): T[] {
  const out = xs.slice(0);
  out.push(x);
  return out;
}

//@ verify
export function firstOfPair(a: number, b: number): number {
  const both = append([a], b);
  return first(both);
}

//@ spec
//@ requires 0 <= i && i <= xs.length
//@ decreases xs.length - i
export function sumFrom(xs: readonly number[], i: number): number {
  if (i === xs.length) return 0;
  return xs[i] + sumFrom(xs, i + 1);
}
