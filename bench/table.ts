// Number formats and the Markdown table that every bench section prints.

/** A message count as 1k, 10k, 1M. */
export function fmtN(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n);
}
/** A ratio with two decimals, or a dash where there is none. */
export function fmtRatio(r: number | undefined): string {
  return r === undefined ? "—" : `${r.toFixed(2)}x`;
}
/** A number with `digits` decimals. */
export function fmt(x: number, digits = 1): string {
  return x.toFixed(digits);
}
/** A Markdown table. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}
