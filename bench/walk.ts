// The walk of one conversation through compactMessages, as a reader following the code would
// make it, and the largest function of the runtime. `npx tsx bench/walk.ts` (add --json for
// the raw figures). Not part of `npm run bench`: it measures structure, not speed.
//
// How: every file the run can enter (src/ without toolchain/ and reference/) is copied under
// .tmp/walk/ with one call added at the opening of each function body (on the same line, so
// line numbers hold), recording the function and, from the stack, the function that called it.
// examples/session.openai.json is then compacted by the instrumented compactMessages (offline
// summarizer, a token threshold that makes it compact). The walk is the reader's: each function
// is read once, at its first call, and a "visit" is entering a file from a function of another
// file. Returns are visits to a file already visited. The largest function is measured over the
// runtime: src/ without kernel/, toolchain/ and reference/.

import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
/** The sources measured: src/, or the src/ folder under WALK_SRC_ROOT (to measure an older checkout). */
const SRC = join(process.env.WALK_SRC_ROOT ?? ROOT, "src");
const OUT = join(ROOT, ".tmp", "walk");
/** Folders of src/ that are not the runtime. */
const NOT_RUNTIME = new Set(["kernel", "toolchain", "reference"]);

/** One function-like node of a runtime file. */
interface Fn {
  readonly file: string;
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return f.endsWith(".ts") ? [p] : [];
  });
}

function isRuntime(path: string): boolean {
  const top = relative(SRC, path).split("/")[0];
  return !NOT_RUNTIME.has(top);
}

function fnName(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const p = node.parent;
  if (p !== undefined && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p))) return p.name.getText(sf);
  return `<anonymous@${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}>`;
}

/** Every function-like node with a body, outermost first. */
function functionsOf(sf: ts.SourceFile): ts.FunctionLikeDeclaration[] {
  const out: ts.FunctionLikeDeclaration[] = [];
  const visit = (n: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(n) ||
        ts.isMethodDeclaration(n) ||
        ts.isConstructorDeclaration(n) ||
        ts.isGetAccessorDeclaration(n) ||
        ts.isSetAccessorDeclaration(n) ||
        ts.isFunctionExpression(n) ||
        ts.isArrowFunction(n)) &&
      n.body !== undefined
    )
      out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The largest function-like node of the runtime, by lines (first to last line of its text). */
export function largestFunctions(count = 5): Fn[] {
  const all: Fn[] = [];
  for (const path of tsFiles(SRC).filter(isRuntime)) {
    const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    for (const f of functionsOf(sf)) {
      const startLine = sf.getLineAndCharacterOfPosition(f.getStart(sf)).line + 1;
      const endLine = sf.getLineAndCharacterOfPosition(f.getEnd()).line + 1;
      all.push({ file: join("src", relative(SRC, path)), name: fnName(f, sf), startLine, endLine });
    }
  }
  return all.sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine)).slice(0, count);
}

/** Copies src/ under OUT with a `__walk(id)` call opening each runtime function; returns the table of ids. */
function instrument(): Fn[] {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  cpSync(SRC, join(OUT, "src"), { recursive: true });
  const table: Fn[] = [];
  for (const path of tsFiles(SRC).filter((p) => isRuntime(p) || relative(SRC, p).startsWith("kernel/"))) {
    const text = readFileSync(path, "utf8");
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const edits: { at: number; text: string }[] = [];
    for (const f of functionsOf(sf)) {
      const body = f.body as ts.ConciseBody;
      const id = table.length;
      table.push({
        file: join("src", relative(SRC, path)),
        name: fnName(f, sf),
        startLine: sf.getLineAndCharacterOfPosition(f.getStart(sf)).line + 1,
        endLine: sf.getLineAndCharacterOfPosition(f.getEnd()).line + 1,
      });
      if (ts.isBlock(body)) edits.push({ at: body.getStart(sf) + 1, text: `__walk(${id});` });
      else {
        edits.push({ at: body.getStart(sf), text: `(__walk(${id}), ` });
        edits.push({ at: body.getEnd(), text: ")" });
      }
    }
    edits.sort((a, b) => b.at - a.at);
    let out = text;
    for (const e of edits) out = out.slice(0, e.at) + e.text + out.slice(e.at);
    writeFileSync(join(OUT, "src", relative(SRC, path)), out);
  }
  return table;
}

/** The walk's figures. */
export interface Walk {
  /** files in the order first entered */
  readonly files: string[];
  /** visits (entries from another file) per file */
  readonly visits: Record<string, number>;
  readonly totalVisits: number;
  /** visits to a file already visited */
  readonly returns: number;
  /** the sequence of visits, file by file */
  readonly sequence: string[];
  /** distinct "caller file -> called file" pairs over every call of the run */
  readonly edges: string[];
  /** pairs of files that call each other (the back-and-forth a reader follows) */
  readonly mutual: string[];
}

async function walk(): Promise<Walk> {
  const table = instrument();
  const byFile = new Map<string, Fn[]>();
  for (const f of table) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  // the innermost instrumented function of a file holding a line, or null (module top level)
  const enclosing = (file: string, line: number): number | null => {
    let best: number | null = null;
    for (const f of byFile.get(file) ?? []) {
      if (f.startLine <= line && line <= f.endLine) {
        const b = best === null ? null : table[best];
        if (b === null || f.endLine - f.startLine <= b.endLine - b.startLine) best = table.indexOf(f);
      }
    }
    return best;
  };
  const seen = new Set<number>();
  const firstCalls: { callee: number; callerFile: string | null }[] = [];
  const edges = new Set<string>();
  // per called function, the caller frames (file:line) already seen: the stack is read once per call site
  const sites = new Map<number, Set<string>>();
  const g = globalThis as unknown as { __walk: (id: number) => void };
  g.__walk = (id: number) => {
    const first = !seen.has(id);
    seen.add(id);
    // the caller: the first frame below the called function's that lies in the copied src/
    const saved = Error.prepareStackTrace;
    Error.stackTraceLimit = 50;
    Error.prepareStackTrace = (_e, cs) => cs;
    const stack = new Error().stack as unknown as NodeJS.CallSite[];
    Error.prepareStackTrace = saved;
    let callerFile: string | null = null;
    let callerLine = 0;
    for (const frame of stack.slice(2)) {
      const name = frame.getFileName();
      if (name === undefined || name === null) continue;
      const p = name.startsWith("file:") ? new URL(name).pathname : name;
      if (!p.startsWith(OUT)) continue;
      callerFile = relative(OUT, p);
      callerLine = frame.getLineNumber() ?? 0;
      const at = enclosing(callerFile, callerLine);
      if (at !== null) callerFile = table[at].file;
      break;
    }
    if (callerFile !== null && callerFile !== table[id].file) {
      const site = `${callerFile}:${callerLine}`;
      const known = sites.get(id) ?? new Set<string>();
      sites.set(id, known);
      if (!known.has(site)) {
        known.add(site);
        edges.add(`${callerFile} -> ${table[id].file}`);
      }
    }
    if (first) firstCalls.push({ callee: id, callerFile });
  };
  const lib = (await import(pathToFileURL(join(OUT, "src/library/compact-messages.ts")).href)) as {
    compactMessages: (m: unknown, c: unknown) => Promise<{ report: { outcome: string; stretches: unknown[] } }>;
  };
  const openai = (await import(pathToFileURL(join(OUT, "src/adapters/openai.ts")).href)) as {
    readOpenAIMessages: (v: unknown) => unknown[];
  };
  const body = JSON.parse(readFileSync(join(ROOT, "examples/session.openai.json"), "utf8")) as { messages: unknown };
  const messages = openai.readOpenAIMessages(body.messages);
  // only compactMessages' walk: what reading the example entered is forgotten
  seen.clear();
  firstCalls.length = 0;
  edges.clear();
  const r = await lib.compactMessages(messages, { token_threshold: 4000 });
  if (r.report.stretches.length === 0) throw new Error(`the example did not compact (${r.report.outcome})`);
  const files: string[] = [];
  const visits: Record<string, number> = {};
  const sequence: string[] = [];
  for (const c of firstCalls) {
    const f = table[c.callee].file;
    if (c.callerFile === f) continue;
    if (!files.includes(f)) files.push(f);
    visits[f] = (visits[f] ?? 0) + 1;
    sequence.push(f);
  }
  const totalVisits = sequence.length;
  const mutual = [...edges].flatMap((e) => {
    const [a, b] = e.split(" -> ");
    return a < b && edges.has(`${b} -> ${a}`) ? [`${a} <-> ${b}`] : [];
  });
  return {
    files,
    visits,
    totalVisits,
    returns: totalVisits - files.length,
    sequence,
    edges: [...edges].sort(),
    mutual,
  };
}

async function main(): Promise<void> {
  const w = await walk();
  const largest = largestFunctions();
  rmSync(OUT, { recursive: true, force: true });
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ walk: w, largest }, null, 2));
    return;
  }
  console.log(`walk of examples/session.openai.json through compactMessages (token_threshold 4000):`);
  console.log(`  files entered: ${w.files.length}; visits: ${w.totalVisits}; returns to a visited file: ${w.returns}`);
  for (const f of w.files) console.log(`  ${String(w.visits[f]).padStart(3)}  ${f}`);
  console.log(`file-to-file call edges: ${w.edges.length}; files calling each other: ${w.mutual.length}`);
  for (const m of w.mutual) console.log(`  ${m}`);
  // the engine's bottom calling up into the store or the run (the gate editing the store's state)
  const upward = w.edges.filter((e) => /^src\/engine\/boundary\/.* -> src\/engine\/(?!boundary\/)/.test(e));
  console.log(`calls from engine/boundary up into the engine: ${upward.length}`);
  for (const e of upward) console.log(`  ${e}`);
  console.log("largest runtime functions (lines):");
  for (const f of largest)
    console.log(`  ${String(f.endLine - f.startLine + 1).padStart(4)}  ${f.file}:${f.startLine} ${f.name}`);
}

await main();
