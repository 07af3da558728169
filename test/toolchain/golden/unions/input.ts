// Golden case: string-literal unions and enums become datatypes. A string literal takes
// its datatype from the other operand of ===/!==, from the return type, from a record
// field, from a parameter, from an array element type, and from a conditional's position.

export type Kind = "user" | "tool_result" | "max-tokens";

export enum Level {
  Low,
  High,
}

export interface Tagged {
  kind: Kind;
  level: Level;
}

//@ verify
//@ ensures \result <==> k === "user"
export function isUser(k: Kind): boolean {
  return k === "user";
}

//@ verify
export function notTool(k: Kind): boolean {
  return "tool_result" !== k;
}

//@ verify
//@ ensures \result !== "user"
export function toolOr(flag: boolean): Kind {
  if (flag) return "tool_result";
  return flag ? "user" : "max-tokens";
}

//@ verify
export function tag(high: boolean): Tagged {
  return { kind: "max-tokens", level: high ? Level.High : Level.Low };
}

//@ verify
export function userTag(): Tagged {
  return tagOf("user", Level.Low);
}

//@ verify
export function tagOf(kind: Kind, level: Level): Tagged {
  return { kind, level };
}

//@ verify
export function isHigh(t: Tagged): boolean {
  return t.level === Level.High && t.kind !== "user";
}

//@ verify
export function kinds(): Kind[] {
  const ks: Kind[] = ["user"];
  ks.push("tool_result");
  ks[0] = "max-tokens";
  return ks;
}
