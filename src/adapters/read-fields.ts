// Field readers for the adapters that take a package's typed objects (AI SDK messages,
// Responses items): the types say what a caller should pass, but a JavaScript caller or a
// parsed file can pass anything, so each field is checked where it is read and a bad one is an
// InputError naming its path.
import { InputError } from "../model/errors.ts";
import { describeJson } from "../model/json.ts";

/** An object's fields, read one at a time. */
export type Fields = Record<string, unknown>;

/** `v` as an object (not null, not an array), else an InputError at `path` saying `what` was expected. */
export function fields(v: unknown, path: string, what: string): Fields {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new InputError(path, `expected ${what}, got ${describeJson(v)}`);
  return v as Fields;
}

/** `v` as a string, else an InputError at `path`. */
export function str(v: unknown, path: string): string {
  if (typeof v !== "string") throw new InputError(path, `expected a string, got ${describeJson(v)}`);
  return v;
}

/** `v` as JSON text ("" for a value JSON cannot hold, like a function), else an InputError at `path` (cycles, BigInt). */
export function jsonText(v: unknown, path: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch (e) {
    throw new InputError(path, `cannot be written as JSON (${(e as Error).message})`);
  }
  return text ?? "";
}

/** `content` as an array of part objects each with a string `type`, else an InputError naming the part. */
export function typedParts(content: unknown, path: string): Fields[] {
  if (!Array.isArray(content))
    throw new InputError(path, `expected a string or an array of parts, got ${describeJson(content)}`);
  return content.map((p, k) => {
    const part = fields(p, `${path}[${k}]`, "a content part object");
    str(part.type, `${path}[${k}].type`);
    return part;
  });
}
