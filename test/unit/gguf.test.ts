/**
 * The one GGUF check of loading and downloading (src/model/gguf.ts) on real files: a model
 * the runtime loads passes; a page, an old or unknown version, a cut-off file, a header whose
 * counts no file holds, a value of no GGUF type and a missing file are each named in one line.
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

  // node-llama-cpp's reader reads zeros past the end of a file: each of these, read by it alone,
  // spins on a count no file holds and never returns.
  it("names a file that only starts with the magic as not GGUF, without parsing it", async () => {
    expect(await ggufProblem(await file("fake.gguf", "GGUF but broken"))).toBe(
      'not a GGUF model file (it starts with "GGUF but broken"): fake.gguf',
    );
  });

  it("names a header whose counts or lengths reach past the end of the file as truncated", async () => {
    const header = (tensors: bigint, entries: bigint) => {
      const bytes = Buffer.alloc(24);
      bytes.write("GGUF", 0, "latin1");
      bytes.writeUInt32LE(3, 4);
      bytes.writeBigUInt64LE(tensors, 8);
      bytes.writeBigUInt64LE(entries, 16);
      return bytes;
    };
    expect(await ggufProblem(await file("tensors.gguf", header(2n ** 60n, 0n)))).toBe("truncated GGUF file (24 bytes): tensors.gguf");
    expect(await ggufProblem(await file("entries.gguf", header(0n, 2n ** 40n)))).toBe("truncated GGUF file (24 bytes): entries.gguf");
    // The counts of the real model, its header cut after them.
    expect(await ggufProblem(await file("counts.gguf", model.subarray(0, 24)))).toBe("truncated GGUF file (24 bytes): counts.gguf");
    // A whole header whose vocabulary array claims 2^62 strings.
    const key = Buffer.from("tokenizer.ggml.tokens", "latin1");
    const lengthAt = model.indexOf(key) + key.length + 8; // after the key: the value type (array), the item type (string)
    const long = Buffer.from(model);
    expect(long.readBigUInt64LE(lengthAt)).toBeGreaterThan(0n);
    long.writeBigUInt64LE(2n ** 62n, lengthAt);
    expect(await ggufProblem(await file("long.gguf", long))).toBe(`truncated GGUF file (${long.length} bytes): long.gguf`);
  });

  it("names a metadata value of a type GGUF has not as damaged", async () => {
    const key = Buffer.from("general.name", "latin1");
    const typeAt = model.indexOf(key) + key.length;
    const odd = Buffer.from(model);
    expect(odd.readUInt32LE(typeAt)).toBe(8); // a string
    odd.writeUInt32LE(99, typeAt);
    expect(await ggufProblem(await file("odd.gguf", odd))).toBe("damaged GGUF file (unknown metadata value type 99): odd.gguf");
  });

  it("names a missing file by its path, and any file by the name the caller gives", async () => {
    expect(await ggufProblem(path.join(dir, "none.gguf"))).toBe(`model file not found: ${path.join(dir, "none.gguf")}`);
    const page = path.join(dir, "portal.gguf");
    expect(await ggufProblem(page, { name: page })).toMatch(new RegExp(`: ${page.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`));
  });
});
