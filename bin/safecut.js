#!/usr/bin/env node
// Launcher: registers tsx's loader so the TypeScript sources run as they are, then hands the
// arguments to the CLI. The exit code is set (not forced) so buffered output is flushed.
import { register } from "tsx/esm/api";

register();
const { runCli, processIO } = await import("../src/cli/main.ts");
process.exitCode = await runCli(process.argv.slice(2), processIO());
