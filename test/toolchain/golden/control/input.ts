// Golden case: switch with fall-through, a shared body, default in the middle and a
// return, lowered to an if-chain; early return; break out of a while; continue in nested
// blocks of a for loop; nested loops; `i += k` and `i--` increments; block statements.
// Its arithmetic is trusted to stay exact (the number model has its own probes):
//@ unbounded-numbers

export type Op = "add" | "sub" | "neg" | "nop" | "twice";

//@ verify
export function apply(op: Op, x: number, y: number): number {
  let r = 0;
  switch (op) {
    case "add":
      r = x + y;
      break;
    case "sub":
    case "neg":
      r = -y;
      if (op === "sub") {
        r = r + x;
      }
      break;
    default:
      r = 100;
    case "twice":
      r = r + x + x;
      break;
    case "nop":
      return x;
  }
  return r;
}

//@ verify
//@ ensures \result >= 0
export function classify(n: number): number {
  switch (n) {
    case 0:
      return 0;
    case 1:
      return 10;
  }
  if (n < 0) {
    return -n;
  }
  return n;
}

//@ verify
//@ requires step > 0
export function countEvery(n: number, step: number): number {
  let c = 0;
  for (let i = 0; i < n; i += step) {
    //@ invariant c >= 0
    {
      if (i === 3) {
        continue;
      } else if (i === 5) {
        c += 2;
        continue;
      }
    }
    c++;
  }
  return c;
}

//@ verify
export function firstZeroPair(xs: readonly number[]): number {
  let found = -1;
  let i = 0;
  while (i < xs.length) {
    //@ invariant 0 <= i && i <= xs.length
    //@ decreases xs.length - i
    for (let j = i; j > 0; j--) {
      //@ invariant j >= 0
      if (xs[j] === 0) {
        continue;
      }
    }
    if (xs[i] === 0) {
      found = i;
      break;
    }
    i++;
  }
  return found;
}
