// A TCP port on 127.0.0.1 where nothing listens: a refused connection for the tests of what a
// refused server looks like to the user.
import { createServer } from "node:net";

/** A port that was free a moment ago (bound, read, released). */
export function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a !== null ? done(a.port) : fail(new Error("no port"))));
    });
  });
}
