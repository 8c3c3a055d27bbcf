/**
 * Podman for the container test: the repository's Dockerfile built on a local base image (no
 * image registry is reachable), and containers run with this machine's quirks configured.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./server.js";

const run = promisify(execFile);

/**
 * A containers.conf of the test's own, which podman then reads alone: runc, since crun fails on
 * the hybrid cgroups of these kernels, and no default ulimits, which cannot be set here.
 */
function containersConf(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "inkpress-podman-")), "containers.conf");
  writeFileSync(file, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  return file;
}

const env = { ...process.env, CONTAINERS_CONF: containersConf() };

/** What a podman command printed and how it ended; it never throws on a non-zero exit. */
export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `podman ARGS` to completion, bounded by `timeoutMs`. */
export async function podman(args: string[], timeoutMs = 60_000): Promise<PodmanResult> {
  return run("podman", args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number | string; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === "number" ? error.code : -1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? String(error),
    }),
  );
}

/** `podman ARGS`, failing with its output when it fails. */
export async function podmanOk(args: string[], timeoutMs?: number): Promise<string> {
  const result = await podman(args, timeoutMs);
  if (result.code !== 0) throw new Error(`podman ${args.join(" ")} exited with ${result.code}: ${result.stderr.slice(-4000)}`);
  return result.stdout;
}

/** The local base image (Debian bookworm minbase with this machine's node), made or found by scripts/container-test-base.sh. */
export async function testBaseImage(): Promise<string> {
  const { stdout } = await run(path.join(ROOT, "scripts/container-test-base.sh"), [], {
    env,
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

/**
 * Build the repository's Dockerfile on `base`, tagged `tag`. `npm ci` inside it reaches the
 * registry through the host's network; the docker format keeps the HEALTHCHECK, which the OCI
 * format drops.
 */
export async function buildImage(options: { base: string; tag: string; timeoutMs: number }): Promise<void> {
  await podmanOk(
    ["build", "--format", "docker", "--network", "host", "--build-arg", `BASE=${options.base}`, "--tag", options.tag, ROOT],
    options.timeoutMs,
  );
}
