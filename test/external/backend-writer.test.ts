import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend, Prompt, Writer } from "../../src/model/backend.js";
import { PoolClosedError } from "../../src/model/pool.js";
import { FORCED_LEAD } from "../../src/model/forced-text.js";
import type { RemoteBackend } from "../../src/model/remote/backend.js";
import { connectBackend } from "../../src/model/remote/connect.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the remote backend suite needs ${STORIES_MODEL}, which is not there.`);
}

/** stories260K has no chat template: the completion prompt is all it reads. */
const PROMPT: Prompt = { system: "You write stories.", user: "Write a story.", completion: "" };
const OPENING = "Once upon a time";

/** Run one step to its end and return the pieces it yielded. */
async function step(writer: Writer, options: Parameters<Writer["generate"]>[0]): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of writer.generate(options)) pieces.push(piece);
  return pieces;
}

/** A writer that has begun the story and holds the opening. */
async function opened(backend: Backend): Promise<Writer> {
  const writer = await backend.writer();
  await writer.begin(PROMPT);
  writer.append(OPENING);
  return writer;
}

describe.skipIf(!HAS_STORIES_MODEL)("remote backend on llama-server (stories260K)", () => {
  let server: RunningLlamaServer;

  beforeAll(async () => {
    server = await startLlamaServer({ model: STORIES_MODEL, parallel: 2 });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => server?.stop());

  it("reads the server's facts: model, prompting, context, slots", async () => {
    const backend = await connectBackend(server.url);
    expect(backend.name).toBe("stories260K.gguf");
    // llama-server reports ChatML for a model without a template; inkpress prompts it as plain completion.
    expect(backend.prompting).toBe("completion");
    expect(backend.contextSize).toBeGreaterThan(0);
    expect(backend.slots.status()).toEqual({ running: 0, waiting: 0, capacity: 2 + 16 });
    await backend.dispose();
  });

  describe.each(["native", "openai"] as const)("through the %s completion endpoint", (api) => {
    let backend: RemoteBackend;
    beforeAll(async () => {
      backend = await connectBackend(server.url, { api });
    });
    afterAll(() => backend?.dispose());

    it("sends prompts as token ids, and says so in its report", async () => {
      expect(await backend.report()).toMatchObject({ kind: "llama-server", prompts: "token-ids" });
    });

    it("continues the forced text; each step grows the text by the pieces it yields", async () => {
      const writer = await opened(backend);
      const first = await step(writer, { maxTokens: 20, seed: 1 });
      expect(first.length).toBeGreaterThan(0);
      expect(writer.text).toBe(OPENING + first.join(""));
      const before = writer.text;
      const second = await step(writer, { maxTokens: 20, seed: 2 });
      expect(writer.text).toBe(before + second.join(""));
      expect(writer.text.length).toBeGreaterThan(before.length);
      await writer.dispose();
    });

    it("gives the same text for the same seed", async () => {
      const texts: string[] = [];
      for (let i = 0; i < 2; i++) {
        const writer = await opened(backend);
        await step(writer, { maxTokens: 20, seed: 42 });
        texts.push(writer.text);
        await writer.dispose();
      }
      expect(texts[1]).toBe(texts[0]);
      expect(texts[0]!.length).toBeGreaterThan(OPENING.length);
    });

    it("continues from the cut text after truncate()", async () => {
      const writer = await opened(backend);
      await step(writer, { maxTokens: 20, seed: 7 });
      const cut = writer.text.slice(0, OPENING.length + 3);
      writer.truncate(cut.length);
      expect(writer.text).toBe(cut);
      const pieces = await step(writer, { maxTokens: 20, seed: 8 });
      expect(writer.text).toBe(cut + pieces.join(""));
      expect(pieces.length).toBeGreaterThan(0);
      await writer.dispose();
    });

    it("follows a GBNF grammar and ends when it is complete", async () => {
      const writer = await opened(backend);
      writer.append(". Was it sunny?");
      const before = writer.text;
      await step(writer, { maxTokens: 20, seed: 3, grammar: 'root ::= " yes" | " no"' });
      expect([" yes", " no"]).toContain(writer.text.slice(before.length));
      expect(writer.stopReason).toBe("end");
      await writer.dispose();
    });

    it("never samples, in a grammar step, a token whose text the step's `impossible` pattern names", async () => {
      const written = async (impossible?: RegExp) => {
        const writer = await opened(backend);
        const before = writer.text;
        await step(writer, { maxTokens: 40, seed: 3, grammar: "root ::= [a-zA-Z ,.]+", ...(impossible ? { impossible } : {}) });
        await writer.dispose();
        return writer.text.slice(before.length);
      };
      // stories260K writes "e" in nearly every word; the grammar alone admits it.
      expect(await written()).toMatch(/e/u);
      const text = await written(/e/u);
      expect(text.length).toBeGreaterThan(20);
      expect(text).not.toMatch(/e/u);
      // End of generation stays, whatever its text: a complete grammar ends the step.
      const writer = await opened(backend);
      writer.append(". Was it sunny?");
      const before = writer.text;
      await step(writer, { maxTokens: 10, seed: 3, grammar: 'root ::= " yes"', impossible: /[^ yes]/u });
      expect([writer.text.slice(before.length), writer.stopReason]).toEqual([" yes", "end"]);
      await writer.dispose();
    });

    it("counts prompt and completion tokens; a later step only evaluates what is new", async () => {
      const writer = await opened(backend);
      await step(writer, { maxTokens: 20, seed: 5 });
      expect(writer.stopReason).toBe("length");
      expect(writer.usage.completionTokens).toBe(20);
      const firstPrompt = writer.usage.promptTokens;
      expect(firstPrompt).toBeGreaterThan(0);
      await step(writer, { maxTokens: 20, seed: 6 });
      expect(writer.usage.completionTokens).toBe(40);
      // The cache holds the prompt and the first step's answer: only its last token or so is new.
      expect(writer.usage.promptTokens - firstPrompt).toBeLessThanOrEqual(4);
      await writer.dispose();
    });

    it("the server's cache matches the answer through forced text and cuts: a step evaluates only what follows what it holds", async () => {
      const writer = await opened(backend);
      const evaluated = async (options: Parameters<Writer["generate"]>[0]) => {
        const before = writer.usage.promptTokens;
        await step(writer, options);
        return writer.usage.promptTokens - before;
      };
      await step(writer, { maxTokens: 20, seed: 11 });
      // The last token sampled is all that is new: the answer went back as the ids the server generated.
      expect(await evaluated({ maxTokens: 20, seed: 12 })).toBe(1);
      const forced = " and then";
      const tokenize = async (content: string) =>
        (
          (await (await fetch(`${server.url}/tokenize`, { method: "POST", body: JSON.stringify({ content }) })).json()) as {
            tokens: number[];
          }
        ).tokens;
      // The piece goes without the space prefix stories260K's tokenizer puts before a text: one token fewer.
      const [alone, after, lead] = await Promise.all([tokenize(forced), tokenize(`${FORCED_LEAD}${forced}`), tokenize(FORCED_LEAD)]);
      const piece = after.slice(lead.length);
      expect(piece.length).toBe(alone.length - 1);
      writer.append(forced);
      expect(await evaluated({ maxTokens: 20, seed: 13 })).toBe(1 + piece.length);
      // A cut inside generated text keeps the tokens before it: only the cut token's kept part is new.
      writer.truncate(writer.text.length - 3);
      expect(await evaluated({ maxTokens: 20, seed: 14 })).toBeLessThanOrEqual(3);
      await writer.dispose();
    });
  });

  it("starts each article on a fresh cache: the same request costs the same prompt tokens", async () => {
    const backend = await connectBackend(server.url);
    const usages = [];
    for (let i = 0; i < 2; i++) {
      const writer = await opened(backend);
      await step(writer, { maxTokens: 10, seed: 9 });
      usages.push(writer.usage);
      await writer.dispose();
    }
    expect(usages[1]).toEqual(usages[0]);
    await backend.dispose();
  });

  it("writes as many articles at once as the server has slots", async () => {
    const backend = await connectBackend(server.url);
    const writers = await Promise.all([opened(backend), opened(backend)]);
    expect(backend.slots.status().running).toBe(2);
    await Promise.all(writers.map((writer, i) => step(writer, { maxTokens: 20, seed: i })));
    for (const writer of writers) expect(writer.text.length).toBeGreaterThan(OPENING.length);
    await Promise.all(writers.map((writer) => writer.dispose()));
    await backend.dispose();
  });

  it("lends at most `sequences` writers and queues the rest", async () => {
    const backend = await connectBackend(server.url, { sequences: 1, queueSize: 1 });
    const first = await backend.writer();
    const waiting = backend.writer();
    expect(backend.slots.status()).toEqual({ running: 1, waiting: 1, capacity: 2 });
    expect(backend.slots.hasRoom()).toBe(false);
    await first.dispose();
    const second = await waiting;
    expect(backend.slots.status()).toEqual({ running: 1, waiting: 0, capacity: 2 });
    await second.dispose();
    await backend.dispose();
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("remote backend: a model with a chat template", () => {
  let server: RunningLlamaServer;

  beforeAll(async () => {
    // A built-in template by name (llama.cpp needs --no-jinja for those): stories260K has none of its own.
    server = await startLlamaServer({ model: STORIES_MODEL, args: ["--chat-template", "zephyr", "--no-jinja"] });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => server?.stop());

  async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
    return (await fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
  }

  it("writes after the system and user turns in the server's template", async () => {
    const backend = await connectBackend(server.url);
    expect(backend.prompting).toBe("chat-template");
    const writer = await opened(backend);
    await step(writer, { maxTokens: 5, seed: 1 });
    const messages = [
      { role: "system", content: PROMPT.system },
      { role: "user", content: PROMPT.user },
    ];
    const { prompt } = await post("/apply-template", { messages });
    expect(prompt).toBe("<|system|>\nYou write stories.<|endoftext|>\n<|user|>\nWrite a story.<|endoftext|>\n<|assistant|>\n");
    // The first step (on a fresh cache) evaluated exactly the formatted turns and the opening.
    const { tokens } = await post("/tokenize", { content: `${prompt as string}${OPENING}`, add_special: true });
    expect(writer.usage.promptTokens).toBe((tokens as unknown[]).length);
    await writer.dispose();
    await backend.dispose();
  });

  it("the OpenAI-compatible endpoint prompts through the template too", async () => {
    const backend = await connectBackend(server.url, { api: "openai" });
    expect(backend.prompting).toBe("chat-template");
    const writer = await opened(backend);
    const pieces = await step(writer, { maxTokens: 5, seed: 1 });
    expect(writer.text).toBe(OPENING + pieces.join(""));
    await writer.dispose();
    await backend.dispose();
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("remote backend: long answers and cancellation", () => {
  let server: RunningLlamaServer;

  beforeAll(async () => {
    // Story after story (BOS is no end here), in a context far larger than a second of writing.
    server = await startLlamaServer({ model: STORIES_MODEL, contextSize: 16384, endAtBos: false });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => server?.stop());

  it("an aborted step throws the abort's reason, keeps the text so far, and the server frees the slot at once", async () => {
    const backend = await connectBackend(server.url);
    const writer = await opened(backend);
    const controller = new AbortController();
    const stopped = await (async () => {
      for await (const piece of writer.generate({ maxTokens: 15000, seed: 1, signal: controller.signal })) {
        expect(piece).toBeTruthy();
        controller.abort(new Error("the client left"));
      }
    })().catch((e: unknown) => e);
    expect(stopped).toEqual(new Error("the client left"));
    expect(writer.stopReason).toBe("caller");
    expect(writer.text.length).toBeGreaterThan(OPENING.length);
    expect(writer.usage.completionTokens).toBeGreaterThan(0);
    const deadline = Date.now() + 1000;
    while ((await server.processing()).some(Boolean) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await server.processing()).toEqual([false]);
    await writer.dispose();
    await backend.dispose();
  });

  it("disposing the backend aborts the steps in flight and turns new work away", async () => {
    const backend = await connectBackend(server.url);
    const writer = await opened(backend);
    const stopped = await (async () => {
      for await (const _ of writer.generate({ maxTokens: 15000, seed: 2 })) await backend.dispose();
    })().catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(PoolClosedError);
    expect(writer.stopReason).toBe("caller");
    await expect(backend.writer()).rejects.toBeInstanceOf(PoolClosedError);
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("remote backend: articles longer than the context", () => {
  let server: RunningLlamaServer;

  beforeAll(async () => {
    server = await startLlamaServer({ model: STORIES_MODEL, contextSize: 256, endAtBos: false });
  }, BUILD_TIMEOUT_MS);
  afterAll(() => server?.stop());

  it("drops the oldest prose after the pinned part and keeps writing", async () => {
    const backend = await connectBackend(server.url);
    expect(backend.contextSize).toBe(256);
    const writer = await backend.writer();
    await writer.begin(PROMPT);
    writer.append("Title: The Red Ball\n\n");
    writer.pin();
    writer.append(OPENING);
    for (let i = 0; i < 12; i++) await step(writer, { maxTokens: 60, seed: i });
    // Far more than the context holds, all of it kept in `text`.
    const tokens = (await (
      await fetch(`${server.url}/tokenize`, { method: "POST", body: JSON.stringify({ content: writer.text }) })
    ).json()) as {
      tokens: number[];
    };
    expect(tokens.tokens.length).toBeGreaterThan(2 * 256);
    expect(writer.text.startsWith(`Title: The Red Ball\n\n${OPENING}`)).toBe(true);
    expect(writer.usage.completionTokens).toBeGreaterThan(2 * 256);
    await writer.dispose();
    await backend.dispose();
  });
});
