// processAlive: a killed process that its parent has not reaped yet (a zombie) is not running.
// A session writer whose lock's owner was its own killed child, waiting for the lock without
// letting the event loop reap that child, waited out the lock's whole time limit before.
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/model/process-alive.ts";

describe("processAlive", () => {
  it("is true for a running child, false once it is killed even before it is reaped", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    await new Promise((r) => child.once("spawn", r));
    const pid = child.pid as number;
    expect(processAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    // no await: the event loop cannot reap the child, which stays a zombie until it does
    spawnSync("sleep", ["0.3"]);
    expect(processAlive(pid)).toBe(false);
    await new Promise((r) => child.once("exit", r));
    expect(processAlive(pid)).toBe(false);
  });

  it("is false for a pid no process has", () => {
    expect(processAlive(2 ** 22 + 12345)).toBe(false);
  });
});
