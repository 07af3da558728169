// The table of settings is the one source: the schema fills its defaults, the kernel's view is
// built from its rules, the CLI's flags read into its fields, docs/settings.md shows it as generated.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, END, SETTINGS_PAGE, settingsTableMarkdown } from "../../scripts/readme-settings.ts";
import { settingOptions, settingsFromFlags } from "../../src/cli/settings.ts";
import { configView, parseConfig, ruleText } from "../../src/engine/boundary/config-rules.ts";
import { configSchema } from "../../src/model/config.ts";
import type { ConfigError } from "../../src/model/errors.ts";
import { DEFAULT_SUMMARY_TAG, SETTINGS, settingRows } from "../../src/model/settings-table.ts";
import { runInProcess, tempDir } from "../support/cli-run.ts";

describe("the table of settings", () => {
  it("docs/settings.md's settings table is the one generated from it (regenerate: npx tsx scripts/readme-settings.ts)", () => {
    const page = readFileSync(new URL(`../../${SETTINGS_PAGE}`, import.meta.url), "utf8");
    const start = page.indexOf(BEGIN);
    const end = page.indexOf(END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(page.slice(start, end + END.length)).toBe(settingsTableMarkdown());
  });

  it("the schema has exactly its settings and fills its defaults", () => {
    expect(Object.keys(configSchema.shape)).toEqual(Object.keys(SETTINGS));
    const c = parseConfig({});
    for (const [name, s] of settingRows()) expect(c[name], name).toEqual(s.default);
    expect(DEFAULT_SUMMARY_TAG).toBe("summary");
  });

  it("gives the kernel a number and a Set flag for each setting that may be unset, 0 when unset", () => {
    const view = (input: object) => configView(parseConfig(input));
    expect(view({ message_threshold: 40, context_window: 9000, reserve_tokens: 1000 })).toEqual({
      maxTokens: 2000,
      tokenThresholdSet: true,
      tokenThreshold: 60000,
      messageThresholdSet: true,
      messageThreshold: 40,
      turnThresholdSet: false,
      turnThreshold: 0,
      retentionWindow: 6,
      summaryTagLength: 7,
      modelKnown: true,
      contextWindowSet: true,
      contextWindow: 9000,
      reserveTokens: 1000,
      keepRecentTokensSet: false,
      keepRecentTokens: 0,
      softTokenThresholdSet: false,
      softTokenThreshold: 0,
    });
    expect(view({ token_threshold: null, turn_threshold: 3, keep_recent_tokens: 500 })).toMatchObject({
      tokenThresholdSet: false,
      tokenThreshold: 0,
      turnThresholdSet: true,
      turnThreshold: 3,
      keepRecentTokensSet: true,
      keepRecentTokens: 500,
    });
  });

  it("a soft threshold not below token_threshold, or not below the window's room after the reserve, is refused naming soft_token_threshold", () => {
    const rule = `soft_token_threshold: ${ruleText(SETTINGS.soft_token_threshold)}`;
    const refused = (input: object) => {
      try {
        parseConfig(input);
      } catch (e) {
        return { field: (e as ConfigError).field, message: (e as Error).message };
      }
      return "accepted";
    };
    const windowed = { token_threshold: null, context_window: 20_000, reserve_tokens: 4_000 };
    expect(refused({ soft_token_threshold: 60_000 })).toEqual({
      field: "soft_token_threshold",
      message: `${rule}, got 60000`,
    });
    expect(refused({ soft_token_threshold: 70_000 })).toEqual({
      field: "soft_token_threshold",
      message: `${rule}, got 70000`,
    });
    expect(refused({ soft_token_threshold: 0 })).toEqual({ field: "soft_token_threshold", message: `${rule}, got 0` });
    expect(refused({ ...windowed, soft_token_threshold: 16_000 })).toEqual({
      field: "soft_token_threshold",
      message: `${rule}, got 16000`,
    });
    expect(refused({ soft_token_threshold: 59_999 })).toBe("accepted");
    expect(refused({ ...windowed, soft_token_threshold: 15_999 })).toBe("accepted");
    expect(refused({ soft_token_threshold: null })).toBe("accepted");
  });

  it("every rule reads in full: the kernel's constants are filled in", () => {
    expect(ruleText(SETTINGS.max_tokens)).toBe("must be between 1 and 100000");
    for (const [name, s] of settingRows()) if (s.rule?.by === "kernel") expect(ruleText(s), name).not.toMatch(/[{}]/);
  });

  it("each flag sets its own field, read by the field's type", () => {
    const cwd = tempDir();
    const flags: Record<string, string | string[] | boolean> = {};
    const expected: Record<string, unknown> = {};
    for (const { name, spec, option } of settingOptions()) {
      if (spec.flagNamesFile === true) continue; // read from a file: covered by the CLI tests
      const key = option.attributeName();
      if (spec.type === "list")
        [flags[key], expected[name]] = [
          ["a", "b"],
          ["a", "b"],
        ];
      else if (spec.type === "count" || spec.type === "count or unset") [flags[key], expected[name]] = ["12", 12];
      else if (spec.type === "choice") [flags[key], expected[name]] = [spec.choices[1], spec.choices[1]];
      else if (spec.type === "switch") [flags[key], expected[name]] = [true, true];
      else if (spec.type === "reported usage")
        [flags[key], expected[name]] = ["900:4", { prompt_tokens: 900, messages: 4 }];
      else [flags[key], expected[name]] = [`v-${name}`, `v-${name}`];
    }
    expect(settingsFromFlags(flags, cwd)).toEqual(expected);
    // a count not written in decimal digits stays text, which the schema refuses quoting it
    expect(settingsFromFlags({ tokenThreshold: "none", maxTokens: "", retentionWindow: "0x10" }, cwd)).toEqual({
      token_threshold: null,
      max_tokens: "",
      retention_window: "0x10",
    });
  });

  it("--help lists every setting that has a flag, with its default", async () => {
    const r = await runInProcess(["compact", "--help"], { cwd: tempDir() });
    const help = r.stdout.replace(/\s+/g, " ");
    for (const [name, s] of settingRows()) {
      if (s.flag === undefined) continue;
      expect(help, name).toContain(s.flag);
      expect(help, name).toContain(s.help);
    }
    expect(help).toContain("(default 60000; none unsets it)");
  });

  it("a setting the CLI ignores has no flag: --soft-token-threshold is not offered, and is an unknown option", async () => {
    const cwd = tempDir();
    const help = await runInProcess(["compact", "--help"], { cwd });
    expect(help.stdout).not.toContain("--soft-token-threshold");
    const sessionHelp = await runInProcess(["session", "compact", "--help"], { cwd });
    expect(sessionHelp.stdout).toContain("--token-threshold");
    expect(sessionHelp.stdout).not.toContain("--soft-token-threshold");
    const r = await runInProcess(["compact", "conv.json", "--soft-token-threshold", "5000"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--soft-token-threshold'");
  });
});
