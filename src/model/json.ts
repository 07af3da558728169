// JSON values as parsed from conversation files; adapters narrow these by hand so that every
// error can name the exact JSON path.

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** True when `v` is a plain JSON object (not null, not an array). */
export function isJsonObject(v: Json | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A short description of a value's type for error messages ("a number", "null"); also for non-JSON values callers pass. */
export function describeJson(v: unknown): string {
  if (v === undefined) return "nothing (field missing)";
  if (v === null) return "null";
  // JSON has no NaN or infinities, but a hand-built message can carry them
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}
