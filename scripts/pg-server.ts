// A throwaway PostgreSQL server for the tests and benches: Debian's binaries
// (/usr/lib/postgresql/N/bin), initdb in a fresh temporary directory, pg_ctl start on 127.0.0.1
// at a free port, one database; stop() shuts it down and removes the directory. initdb refuses
// to run as root, so as root the server runs as the `postgres` user (which Debian's package
// creates) and the directory is handed to it.

import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running server: the URL of its database, and how to stop it. */
export interface PgServer {
  /** postgres://USER@127.0.0.1:PORT/DB */
  readonly url: string;
  /** stops the server and removes its directory */
  stop(): void;
  /** stops the server as a crash would (pg_ctl -m immediate: no shutdown checkpoint), keeping its data */
  crash(): void;
  /** starts the server again on the same port and data after crash() */
  start(): void;
}

/** The bin directory of the newest installed PostgreSQL, or undefined. */
export function pgBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0], "bin");
}

/** A free TCP port on 127.0.0.1 (bound, read, released): nothing listens there until someone binds it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a !== null ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

/** Options of startPgServer. */
export interface PgServerOptions {
  /** the database to create (default "safecut") */
  readonly db?: string;
  /** whether the server syncs its writes to disk (default false: the tests kill clients, never the server; the bench syncs) */
  readonly fsync?: boolean;
  /** a password the server asks for (scram-sha-256), given in the URL; default none (trust) */
  readonly password?: string;
}

/** Starts a server with one database; throws naming what is missing when PostgreSQL is not installed. */
export async function startPgServer(options: PgServerOptions = {}): Promise<PgServer> {
  const db = options.db ?? "safecut";
  const sync = options.fsync === true ? "on" : "off";
  const bin = pgBinDir();
  if (bin === undefined)
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql (.ci/run does it)",
    );
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? "postgres" : (process.env.USER ?? "postgres");
  const dir = mkdtempSync(join(tmpdir(), "safecut-pg-"));
  const data = join(dir, "data");
  const run = (cmd: string, args: readonly string[], env: Record<string, string> = {}) => {
    const exe = join(bin, cmd);
    const o = { stdio: "pipe" as const, env: { ...process.env, ...env } };
    return asRoot ? execFileSync("runuser", ["-u", "postgres", "--", exe, ...args], o) : execFileSync(exe, args, o);
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  /** The password, in a file of the server's user that initdb reads. */
  const pwFile = (): string => {
    const f = join(dir, "pw");
    writeFileSync(f, `${options.password}\n`, { mode: 0o600 });
    if (asRoot) chownSync(f, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), 0);
    return f;
  };
  let started = false;
  const stop = () => {
    if (started) {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already down
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let opts = "";
  const start = () => {
    run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", opts, "-w", "start"]);
    started = true;
  };
  const crash = () => {
    run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    started = false;
  };
  try {
    const auth = options.password === undefined ? ["-A", "trust"] : ["-A", "scram-sha-256", "--pwfile", pwFile()];
    run("initdb", ["-D", data, "-U", user, ...auth, "-E", "UTF8", "--no-locale", "--no-sync"]);
    const port = await freePort();
    // loopback only, the socket only in the directory
    opts = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=${sync} -c full_page_writes=${sync} -c max_connections=200`;
    start();
    const login = options.password === undefined ? user : `${user}:${encodeURIComponent(options.password)}`;
    const env: Record<string, string> = options.password === undefined ? {} : { PGPASSWORD: options.password };
    run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", user, db], env);
    return { url: `postgres://${login}@127.0.0.1:${port}/${db}`, stop, crash, start };
  } catch (e) {
    stop();
    throw e;
  }
}
