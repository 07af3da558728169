// The CLI as a child process that stops between writing an output's temporary file and renaming
// it over the target, and says so on stderr: a test kills it there (SIGKILL) to show that a kill
// mid-write leaves the old file. The pause is a test seam of CliIO, not an environment switch.
import { processIO, runCli } from "../../src/cli/main.ts";

const io = processIO();
process.exitCode = await runCli(process.argv.slice(2), {
  ...io,
  beforeRename: (temp, target) => {
    process.stderr.write(`paused ${JSON.stringify({ temp, target })}\n`);
    // block this thread (no event loop turn, so nothing else runs) until killed
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
  },
});
