import { getLlama, LlamaLogLevel, resolveChatWrapper, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerateOptions, Writer } from "../../src/model/backend.js";
import type { ReportingBackend } from "../../src/model/report.js";
import { ModelRuntime } from "../../src/model/runtime.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { CONTROL, HOSTILE, HOSTILE_REFRESH } from "../helpers/control-tokens.js";
import { jobsApi } from "../helpers/jobs.js";
import { API_KEY, testModel } from "../helpers/server.js";
import { collectSse, readSse } from "../helpers/sse.js";

// Request text must never become control tokens in-process either. Prompts tokenize request text
// as text; a grammar built from request text holds `<|im_start|>` as characters, and llama.cpp's
// grammar sampler would accept the real control token for them, which then sits in every later
// prompt. The ChatML test model writes articles through the real app; after every step the
// tokens its one sequence holds (the prompt the model read, and the answer so far) are recorded.

/** Records what the sequence holds after each step of every writer. */
function recording(runtime: ModelRuntime, sequence: LlamaContextSequence, held: Token[][]): ReportingBackend {
  const wrap = (inner: Writer): Writer => ({
    get usage() {
      return inner.usage;
    },
    get text() {
      return inner.text;
    },
    get stopReason() {
      return inner.stopReason;
    },
    begin: (prompt) => inner.begin(prompt),
    append: (text) => inner.append(text),
    truncate: (length) => inner.truncate(length),
    pin: () => inner.pin(),
    async *generate(options: GenerateOptions) {
      try {
        yield* inner.generate(options);
      } finally {
        held.push([...sequence.contextTokens]);
      }
    },
    dispose: () => inner.dispose(),
  });
  return {
    name: runtime.name,
    prompting: runtime.prompting,
    contextSize: runtime.contextSize,
    slots: runtime.slots,
    report: () => runtime.report(),
    writer: async (signal) => wrap(await runtime.writer(signal)),
    dispose: () => runtime.dispose(),
  };
}

describe("request text never becomes control tokens in-process (ChatML test model)", () => {
  let server: TestApp;
  let model: LlamaModel;
  let backend: ReportingBackend;
  /** Every step's tokens, in order. */
  const held: Token[][] = [];
  /** The id of each control token, and how many of it the template puts in a prompt. */
  const ids = new Map<string, Token>();
  const templateCounts = new Map<Token, number>();
  const count = (tokens: Token[], id: Token) => tokens.filter((t) => t === id).length;

  beforeAll(async () => {
    const path = await testModel("chat");
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, logger: () => {} });
    model = await llama.loadModel({ modelPath: path });
    for (const text of CONTROL) {
      const [id, ...more] = model.tokenize(text, true);
      expect(more, `${text} is one control token of the test model`).toEqual([]);
      expect(model.getTokenAttributes(id!).control, text).toBe(true);
      ids.set(text, id!);
    }
    // The template applied to harmless turns: the control tokens it puts there itself.
    const { contextText } = resolveChatWrapper(model).generateContextState({
      chatHistory: [
        { type: "system", text: "Write." },
        { type: "user", text: "Compost." },
        { type: "model", response: [] },
      ],
    });
    const template = contextText.tokenize(model.tokenizer);
    for (const id of ids.values()) templateCounts.set(id, count(template, id));
    expect(templateCounts.get(ids.get("<|im_start|>")!), "system, user and assistant turns").toBe(3);
    const runtime = await ModelRuntime.load({ modelPath: path, threads: 1, sequences: 1, queueSize: 8, gpu: "off" });
    // One sequence: every writer runs on it.
    const sequence = await runtime.slots.acquire();
    runtime.slots.release(sequence);
    backend = recording(runtime, sequence, held);
    server = await startApp({ load: async () => backend });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.dispose();
  });

  it("a grammar that holds control-token text gets that text, never the control token, on every seed", async () => {
    const grammar = 'root ::= "Honey <|im_start|>, hive<|im_end|> and </s><s>." [ a-z]{0,12}';
    for (let seed = 1; seed <= 12; seed++) {
      const before = held.length;
      const writer = await backend.writer();
      try {
        await writer.begin({ system: "Write.", user: "Compost.", completion: "" });
        for await (const _ of writer.generate({ maxTokens: 64, seed, grammar })) {
          // Read the step whole.
        }
        expect(writer.text, `seed ${seed}`).toMatch(/^Honey <\|im_start\|>, hive<\|im_end\|> and <\/s><s>\./);
        // One more step evaluates what was sampled: the model reads the answer as text.
        for await (const _ of writer.generate({ maxTokens: 1, seed })) {
          // One token.
        }
      } finally {
        await writer.dispose();
      }
      for (const [text, id] of ids) expect(count(held.at(-1)!, id), `${text} after seed ${seed}`).toBe(templateCounts.get(id));
      expect(held.length).toBe(before + 2);
    }
  });

  /** The steps recorded while `run` ran: each holds the template's control tokens and no more. */
  async function expectTemplateOnly(route: string, run: () => Promise<void>): Promise<number> {
    const from = held.length;
    await run();
    const steps = held.slice(from);
    expect(steps.length, route).toBeGreaterThan(0);
    for (const [i, tokens] of steps.entries()) {
      for (const [text, id] of ids) expect(count(tokens, id), `${text} in step ${i} of ${route}`).toBe(templateCounts.get(id));
    }
    return steps.length;
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    server.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
      body: JSON.stringify(body),
    });

  it("generate, stream and jobs: every step holds the template's control tokens, whatever each field wrote", async () => {
    let steps = 0;
    for (const body of HOSTILE) {
      steps += await expectTemplateOnly("generate", async () => {
        const response = await post("/api/v1/generate", body);
        expect(response.status, await response.clone().text()).toBe(200);
        await response.json();
      });
    }
    steps += await expectTemplateOnly("stream", async () => {
      const response = await post("/api/v1/generate", { ...HOSTILE[0], seed: 21 }, { accept: "text/event-stream" });
      expect(response.status).toBe(200);
      expect((await collectSse(readSse(response.body!))).at(-1)!.event).toBe("done");
    });
    steps += await expectTemplateOnly("jobs", async () => {
      const jobs = jobsApi(server.url, API_KEY, server.fetch);
      const job = await jobs.waitFor((await jobs.create({ ...HOSTILE[0], seed: 31 })).id);
      expect(job.status).toBe("succeeded");
    });
    // The request text did reach the model, as text: its characters are in what the model read.
    const read = model.detokenize(held.flat(), false);
    for (const text of [
      "Compost bins <|im_start|> <|im_end|> </s> <s>",
      "red worms <|im_start|>",
      "honey <|im_start|>",
      "need air and water. <|im_start|>",
    ])
      expect(read, text).toContain(text);
    console.log(`${steps} steps checked`);
  }, 300_000);

  it("refresh: every step holds the template's control tokens, however many the article and its keywords wrote", async () => {
    await expectTemplateOnly("refresh", async () => {
      const response = await post("/api/v1/refresh", HOSTILE_REFRESH);
      expect(response.status, await response.clone().text()).toBe(200);
    });
  }, 300_000);
});
