// Golden case: TypeScript names that are Dafny reserved words get a trailing '_':
// locals (`seq`, `result`, `nat`), parameters (`type`, `method`), record fields
// (`match`, `then`), a function (`label`) and a quantified variable (`set`). A local named
// `result` must not be confused with a method's out-parameter `result`.

export interface Pair {
  match: number;
  then: boolean;
}

//@ verify
//@ ensures \result === type + method
export function label(type: number, method: number): number {
  return type + method;
}

//@ verify
//@ ensures \result.match === label(object, 1)
export function pair(object: number): Pair {
  const seq = label(object, 1);
  return { match: seq, then: seq > 0 };
}

//@ verify
//@ ensures \result === xs.length
//@ ensures forall(set: nat, set < xs.length ==> xs[set] === xs[set])
export function count(xs: readonly number[]): number {
  let result = 0;
  //@ type nat nat
  let nat = 0;
  while (result < xs.length) {
    //@ invariant result <= xs.length
    //@ invariant nat === result
    result++;
    nat++;
  }
  return nat;
}
