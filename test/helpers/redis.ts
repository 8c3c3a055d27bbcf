import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./port.js";

/** A real redis-server on a loopback port, persistence off, owned by one test file. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stop it (SIGKILL: "Redis going away"); `start` brings it back on the same port, empty. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Freeze it (SIGSTOP): connections stay open but nothing answers, as in a network partition; data is kept. */
  pause(): void;
  /** Let it answer again (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

/** Start Debian's redis-server (installed by .ci/run) on a free loopback port. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = proc;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      proc.stdout!.on("data", (d) => {
        output += d;
        if (/Ready to accept connections/.test(output)) resolve();
      });
      proc.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      proc.once("error", reject);
    });
  };
  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGKILL");
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
    stop: kill,
  };
}
