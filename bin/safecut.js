#!/usr/bin/env node
// Launcher: runs the compiled CLI in dist/ (built by `npm run build`, which `npm install` and
// `npm pack` run through `prepare`), so no TypeScript is compiled at start-up. In a checkout
// whose sources changed after the last build it says so, rather than silently running old code.
// The exit code is set (not forced) so buffered output is flushed.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const main = new URL("../dist/cli/main.js", import.meta.url);
const src = fileURLToPath(new URL("../src/", import.meta.url));
// only a checkout has the build's config; an installed package's file times say nothing
const checkout = existsSync(new URL("../tsconfig.build.json", import.meta.url));

/** Newest modification time of the .ts files under a folder (0 when there is none). */
function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith(".ts"))
      newest = Math.max(newest, statSync(`${e.parentPath ?? e.path}/${e.name}`).mtimeMs);
  }
  return newest;
}

if (!existsSync(main)) {
  process.stderr.write("safecut: error: dist/ is missing; build it with: npm run build\n");
  process.exitCode = 4;
} else {
  if (checkout && newestSource(src) > statSync(main).mtimeMs) {
    process.stderr.write(
      "safecut: warning: src/ changed after the last build; running the old build (rebuild with: npm run build)\n",
    );
  }
  const { runCli, processIO } = await import(main.href);
  process.exitCode = await runCli(process.argv.slice(2), processIO());
}
