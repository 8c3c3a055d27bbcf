// The container image, as an operator runs it: built with podman from the repository's
// Dockerfile (on a local Debian base, since no image registry is reachable), started with
// stories260K mounted, healthy, writing an article for a client on the host, and stopped by
// `podman stop` within the shutdown grace period.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildImage, podman, podmanOk, testBaseImage } from "../helpers/podman.js";
import { freePort } from "../helpers/port.js";
import { API_KEY, HAS_STORIES_MODEL, ROOT, STORIES_MODEL } from "../helpers/server.js";

/** One image per checkout, kept between runs: podman's layer cache makes a rebuild take seconds. */
const IMAGE = `localhost/inkpress-container-test:${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`;
const CONTAINER = `inkpress-test-${randomBytes(4).toString("hex")}`;
/** Short, so that a stop that waited for it (rather than podman's 30 s kill) shows. */
const GRACE_S = 5;

describe.skipIf(!HAS_STORIES_MODEL)("the container image (podman)", () => {
  let url: string;

  beforeAll(async () => {
    // Uncached, the base takes about 2 minutes (debootstrap) and the build about 3 (npm ci).
    await buildImage({ base: await testBaseImage(), tag: IMAGE, timeoutMs: 480_000 });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await podmanOk([
      "run",
      "--detach",
      "--name",
      CONTAINER,
      "--publish",
      `127.0.0.1:${port}:3000`,
      "--volume",
      `${STORIES_MODEL}:/models/stories260K.gguf:ro`,
      "--env",
      `INKPRESS_API_KEYS=${API_KEY}`,
      "--env",
      `INKPRESS_SHUTDOWN_GRACE_S=${GRACE_S}`,
      IMAGE,
    ]);
  }, 900_000);
  afterAll(() => podman(["rm", "--force", "--time", "0", CONTAINER]));

  it("declares what an operator relies on: port 3000, /models and /data as volumes, a non-root user, the CPU build only", async () => {
    // Podman shows the docker format's HEALTHCHECK beside the config, not in it.
    const [{ Config: config, Healthcheck: healthcheck }] = JSON.parse(await podmanOk(["image", "inspect", IMAGE])) as [
      { Config: { ExposedPorts: object; Volumes: object; Env: string[] }; Healthcheck: { Test: string[] } },
    ];
    expect(Object.keys(config.ExposedPorts)).toEqual(["3000/tcp"]);
    expect(Object.keys(config.Volumes).sort()).toEqual(["/data", "/models"]);
    expect(config.Env).toContain("INKPRESS_HOST=0.0.0.0");
    expect(healthcheck.Test.join(" ")).toContain("/healthz");
    expect((await podmanOk(["exec", CONTAINER, "id", "-u"])).trim()).toBe("10001");
    // node-llama-cpp's prebuilt binaries: the CPU one for this machine, no CUDA or Vulkan build.
    const binaries = (await podmanOk(["exec", CONTAINER, "ls", "/app/node_modules/@node-llama-cpp"])).trim().split("\n");
    expect(binaries).toEqual([`linux-${process.arch}`]);
  });

  it("weighs what docs/operating.md says, within 3 %, on the test's base", async () => {
    const docs = readFileSync(path.join(ROOT, "docs/operating.md"), "utf8");
    const documented = Number(/\*\*What it weighs, and why\.\*\* (\d+) MB/.exec(docs)?.[1]);
    const above = Number(/Above its base the image adds (\d+) MB/.exec(docs)?.[1]);
    const size = async (image: string) => Number((await podmanOk(["image", "inspect", "--format", "{{.Size}}", image])).trim()) / 1e6;
    const [image, base] = [await size(IMAGE), await size(await testBaseImage())];
    const measured = `image ${image.toFixed(1)} MB, ${(image - base).toFixed(1)} MB above its base`;
    expect(Math.abs(image / documented - 1), measured).toBeLessThan(0.03);
    expect(Math.abs((image - base) / above - 1), measured).toBeLessThan(0.05);
  });

  it("turns healthy through its own HEALTHCHECK once the model is loaded", async () => {
    // Podman runs health checks from systemd timers, which a CI container lacks: run the image's check by hand.
    const deadline = Date.now() + 90_000;
    let check = await podman(["healthcheck", "run", CONTAINER]);
    while (check.code !== 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      check = await podman(["healthcheck", "run", CONTAINER]);
    }
    expect(check.code, `${check.stdout}${check.stderr}`).toBe(0);
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ status: "ok", model: "stories260K" });
  });

  it("writes an article for a client on the host, through the published port", async () => {
    const response = await fetch(`${url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic: "Home composting", length: 150, seed: 3 }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { model: string; article: { markdown: string; wordCount: number } };
    expect(answer.model).toBe("stories260K");
    expect(answer.article.markdown).toMatch(/^# \S/);
    expect(answer.article.wordCount).toBeGreaterThan(50);
  });

  it("stops on `podman stop` within the shutdown grace period, exit code 0, while an article is being written", async () => {
    const running = fetch(`${url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic: "Keeping bees through a wet spring", length: 3000, structure: "detailed" }),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = performance.now();
    // Podman would kill the server after 30 s if it ignored the TERM.
    await podmanOk(["stop", "--time", "30", CONTAINER]);
    const seconds = (performance.now() - started) / 1000;
    await running;
    expect(seconds).toBeLessThan(GRACE_S + 10);
    expect((await podmanOk(["inspect", "--format", "{{.State.ExitCode}}", CONTAINER])).trim()).toBe("0");
    expect(`${await podmanOk(["logs", CONTAINER])}`).toMatch(/shutting down/);
  });
});
