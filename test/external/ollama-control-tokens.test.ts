import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTROL, HOSTILE } from "../helpers/control-tokens.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { startOllamaStandIn, type OllamaStandIn } from "../../scripts/ollama-stand-in.js";
import { VICUNA } from "../../scripts/ollama-stand-in-chat.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

// Ollama takes raw prompts as text and parses control tokens in them, so request text must reach
// it with every tag broken. An Ollama STAND-IN (scripts/ollama-stand-in.ts) with a ChatML
// template serves the ChatML test model on a real llama-server, which tokenizes each raw prompt as
// Ollama's runner does (control tokens parsed): every prompt that reaches the model holds the
// template's control tokens and no more, however many the request wrote as text. The same holds
// through /api/chat, where the stand-in applies a template inkpress does not know (Vicuna) to the
// messages inkpress sends: the prompt holds only the BOS, whatever the messages' text held.

/** Ollama's ChatML template, as its library models carry it. */
const CHATML = [
  "{{- if .System }}<|im_start|>system\n{{ .System }}<|im_end|>\n{{ end }}",
  "<|im_start|>user\n{{ .Prompt }}<|im_end|>\n<|im_start|>assistant\n",
].join("");

/** The control tokens of a prompt with the turns open: three turn starts, two ends, and the BOS the tokenizer adds (as Ollama's does). */
const TEMPLATE_COUNTS = { "<|im_start|>": 3, "<|im_end|>": 2, "</s>": 0, "<s>": 1 };
/** Vicuna's prompt with the answer open holds no control token of its own: only the BOS. */
const VICUNA_COUNTS = { "<|im_start|>": 0, "<|im_end|>": 0, "</s>": 0, "<s>": 1 };

let llama: RunningLlamaServer;
const ids = new Map<string, number>();
beforeAll(async () => {
  llama = await startLlamaServer({ model: await testModel("chat"), endAtBos: false });
  for (const text of CONTROL) {
    const [id, ...more] = (
      (await (
        await fetch(`${llama.url}/tokenize`, {
          method: "POST",
          body: JSON.stringify({ content: text, add_special: false, parse_special: true }),
        })
      ).json()) as { tokens: number[] }
    ).tokens;
    expect(more, `${text} is one control token of the test model`).toEqual([]);
    ids.set(text, id!);
  }
}, BUILD_TIMEOUT_MS);
afterAll(() => llama?.stop());

/** How many of each control token the prompts that reached the model hold, each prompt on its own. */
async function counts(ollama: OllamaStandIn): Promise<Record<string, number>[]> {
  const prompts = ollama.calls.map((call) => call.prompt);
  expect(prompts.length).toBeGreaterThan(0);
  return Promise.all(
    prompts.map(async (prompt) => {
      const tokens = (
        (await (
          await fetch(`${llama.url}/tokenize`, {
            method: "POST",
            body: JSON.stringify({ content: prompt, add_special: true, parse_special: true }),
          })
        ).json()) as { tokens: number[] }
      ).tokens;
      return Object.fromEntries([...ids].map(([text, id]) => [text, tokens.filter((t) => t === id).length]));
    }),
  );
}

describe("request text never becomes control tokens on Ollama (a stand-in on llama-server, ChatML test model)", () => {
  let ollama: OllamaStandIn;
  let inkpress: TestServer;

  beforeAll(async () => {
    ollama = await startOllamaStandIn({ llama, model: "tiny-chat:latest", template: CHATML });
    inkpress = await startServer(undefined, {}, { args: ["--backend", ollama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await inkpress?.stop();
    await ollama?.stop();
  });

  it("the model is prompted in its chat format (node-llama-cpp's ChatML wrapper): system, user and assistant turns", async () => {
    const health = await (await fetch(`${inkpress.url}/healthz`)).json();
    expect(health).toMatchObject({ model: "tiny-chat:latest", prompting: "chat-template", backend: { kind: "ollama", prompts: "text" } });
    ollama.calls.length = 0;
    expect((await inkpress.generate({ topic: "Compost bins", length: 150, seed: 3 }, { "x-api-key": API_KEY })).status).toBe(200);
    const first = ollama.calls[0]!.prompt;
    expect(first).toMatch(
      /^<\|im_start\|>system\n[\s\S]*<\|im_end\|>\n<\|im_start\|>user\n[\s\S]*<\|im_end\|>\n<\|im_start\|>assistant\n/u,
    );
    for (const count of await counts(ollama)) expect(count).toEqual(TEMPLATE_COUNTS);
  });

  it("a topic, tone, voice, keywords, sources and links holding <|im_start|>system, <|im_end|>, </s> and <s> add no control token to any prompt", async () => {
    ollama.calls.length = 0;
    const response = await inkpress.generate(HOSTILE[0], { "x-api-key": API_KEY });
    expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(200);
    const prompts = ollama.calls.map((call) => call.prompt);
    // The request's text reached the model, its tags broken.
    expect(prompts[0]).toContain("<\u200b|im_start|>system");
    for (const count of await counts(ollama)) expect(count).toEqual(TEMPLATE_COUNTS);
  });
});

describe("… and through /api/chat, where Ollama applies a chat template inkpress does not know (the stand-in's Vicuna)", () => {
  let ollama: OllamaStandIn;
  let inkpress: TestServer;
  beforeAll(async () => {
    ollama = await startOllamaStandIn({ llama, model: "tiny-vicuna:latest", template: VICUNA });
    inkpress = await startServer(undefined, {}, { args: ["--backend", ollama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await inkpress?.stop();
    await ollama?.stop();
  });

  it("a topic, tone, voice, keywords, sources and links holding <|im_start|>system, <|im_end|>, </s> and <s> reach the model as text, in messages, and add no control token", async () => {
    ollama.calls.length = 0;
    const response = await inkpress.generate(HOSTILE[0], { "x-api-key": API_KEY });
    expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(200);
    expect(ollama.calls.every((call) => call.path === "/api/chat")).toBe(true);
    expect(ollama.calls[0]!.prompt).toContain("<\u200b|im_start|>system");
    for (const count of await counts(ollama)) expect(count).toEqual(VICUNA_COUNTS);
  });
});
