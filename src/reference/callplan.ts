// Reference for src/kernel/callplan.ts.

/** Plain reference of callFits: the call's prompt and answers within the window, its answers within the output cap. */
export function callFits(
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  outputCap: number,
  a: number,
  b: number,
): boolean {
  const ins = input.slice(a, b).reduce((t, x) => t + x, 0);
  const outs = output.slice(a, b).reduce((t, x) => t + x, 0);
  return overhead + ins + outs <= window && outs <= outputCap;
}

/** Plain reference of planCalls: each call starts with one part and takes the next while the call with it fits. */
export function planCalls(
  input: readonly number[],
  output: readonly number[],
  overhead: number,
  window: number,
  outputCap: number,
): number[] {
  const calls: number[] = [];
  for (let a = 0; a < input.length; ) {
    let b = a + 1;
    while (b < input.length && callFits(input, output, overhead, window, outputCap, a, b + 1)) b++;
    calls.push(a, b);
    a = b;
  }
  return calls;
}
