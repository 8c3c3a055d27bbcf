// `npm start` as a service manager or a terminal runs it: a TERM to the process the user started
// (npm) must stop the server, not leave it listening as an orphan.
import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exited } from "../helpers/cli.js";
import { API_KEY, CLEAN_ENV, ROOT, testModel } from "../helpers/server.js";

describe("npm start", () => {
  it("stops the server when npm gets SIGTERM: the port is closed once npm has exited", async () => {
    const model = await testModel("plain");
    const data = await mkdtemp(path.join(tmpdir(), "inkpress-data-"));
    const env = {
      ...process.env,
      ...CLEAN_ENV,
      INKPRESS_API_KEYS: API_KEY,
      INKPRESS_DATA_DIR: data,
      INKPRESS_KEYS_FILE: path.join(data, "keys.json"),
    };
    const npm = spawn("npm", ["start", "--", "--model", model, "--port", "0", "--threads", "1"], {
      cwd: ROOT,
      env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match && /model .* loaded/.test(output)) resolve(match[1]!);
      };
      npm.stdout!.on("data", onData);
      npm.stderr!.on("data", onData);
      npm.once("exit", (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
    });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const started = await descendants(npm.pid!);
    try {
      npm.kill("SIGTERM");
      await exited(npm);
      expect(output).toContain("shutting down");
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      // Whatever npm left behind is this test's to end.
      for (const pid of started) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone, as it should be
        }
      }
    }
  });
});

/** The processes below `pid` (Linux /proc), gone ones left out. */
async function descendants(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  const pids = children.split(" ").filter(Boolean).map(Number);
  return [...pids, ...(await Promise.all(pids.map(descendants))).flat()];
}
