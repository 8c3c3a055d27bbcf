/**
 * The one GGUF check of loading and downloading (src/model/gguf.ts) on real files: a model
 * the runtime loads passes; a page, an old or unknown version, a cut-off file and a missing
 * one are each named in one line.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTestModel } from "../../scripts/make-test-model.js";
import { ggufProblem } from "../../src/model/gguf.js";

describe("ggufProblem", () => {
  let dir: string;
  let model: Buffer;
  const file = async (name: string, bytes: Buffer | string) => {
    const target = path.join(dir, name);
    await writeFile(target, bytes);
    return target;
  };
  const withVersion = (version: number) => {
    const copy = Buffer.from(model);
    copy.writeUInt32LE(version, 4);
    return copy;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-gguf-"));
    model = await readFile(await writeTestModel({ path: path.join(dir, "model.gguf"), variant: "plain" }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("passes a model llama.cpp reads", async () => {
    expect(await ggufProblem(path.join(dir, "model.gguf"))).toBeUndefined();
  });

  it("names a file that is not GGUF by how it starts", async () => {
    const page = await file("portal.gguf", "<!DOCTYPE html><html><body>Sign in</body></html>");
    expect(await ggufProblem(page)).toBe('not a GGUF model file (it starts with "<!DOCTYPE html><"): portal.gguf');
    expect(await ggufProblem(await file("empty.gguf", ""))).toBe('not a GGUF model file (it starts with ""): empty.gguf');
  });

  it("names a version llama.cpp does not read", async () => {
    expect(await ggufProblem(await file("v1.gguf", withVersion(1)))).toMatch(/GGUF version 1 .*: v1\.gguf$/);
    expect(await ggufProblem(await file("v9.gguf", withVersion(9)))).toBe("unsupported GGUF version 9 (llama.cpp reads 2 and 3): v9.gguf");
  });

  it("names a file cut off inside its header", async () => {
    expect(await ggufProblem(await file("cut.gguf", model.subarray(0, 200)))).toBe("truncated GGUF file (200 bytes): cut.gguf");
    expect(await ggufProblem(await file("magic.gguf", "GGUF"))).toBe("truncated GGUF file (4 bytes): magic.gguf");
  });

  it("names a missing file by its path, and any file by the name the caller gives", async () => {
    expect(await ggufProblem(path.join(dir, "none.gguf"))).toBe(`model file not found: ${path.join(dir, "none.gguf")}`);
    const page = path.join(dir, "portal.gguf");
    expect(await ggufProblem(page, { name: page })).toMatch(new RegExp(`: ${page.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`));
  });
});
