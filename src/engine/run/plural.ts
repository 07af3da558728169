// Counts in report and progress text: "1 message", "2 messages".

/** `n` followed by the singular or the plural noun. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
