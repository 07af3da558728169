// Reference for src/kernel/config.ts: the L12 rules as a table checked in order.
import type { ConfigField, ConfigView } from "../kernel/config.ts";

/** The L12 rules in the order fields are reported; each entry says whether its field is valid. */
export function configRules(c: ConfigView): Array<[Exclude<ConfigField, "none">, boolean]> {
  const windowLeft = c.contextWindow - c.reserveTokens;
  return [
    ["maxTokens", c.maxTokens >= 1 && c.maxTokens <= 100_000],
    ["tokenThreshold", !c.tokenThresholdSet || c.tokenThreshold > 0],
    ["messageThreshold", !c.messageThresholdSet || c.messageThreshold > 0],
    ["turnThreshold", !c.turnThresholdSet || c.turnThreshold > 0],
    ["trigger", [c.tokenThresholdSet, c.messageThresholdSet, c.turnThresholdSet, c.contextWindowSet].includes(true)],
    ["retentionWindow", c.retentionWindow >= 1],
    ["summaryTag", c.summaryTagLength >= 1],
    ["model", c.modelKnown],
    ["contextWindow", !c.contextWindowSet || c.contextWindow > 0],
    ["reserveTokens", c.reserveTokens >= 0 && (!c.contextWindowSet || c.reserveTokens < c.contextWindow)],
    [
      "keepRecentTokens",
      !c.keepRecentTokensSet || (c.keepRecentTokens > 0 && (!c.contextWindowSet || c.keepRecentTokens < windowLeft)),
    ],
    [
      "softTokenThreshold",
      !c.softTokenThresholdSet ||
        (c.softTokenThreshold > 0 &&
          (!c.tokenThresholdSet || c.softTokenThreshold < c.tokenThreshold) &&
          (!c.contextWindowSet || c.softTokenThreshold < windowLeft)),
    ],
  ];
}

/** Plain reference of validateConfig. */
export function validateConfig(c: ConfigView): ConfigField {
  const bad = configRules(c).find(([, ok]) => !ok);
  return bad === undefined ? "none" : bad[0];
}
