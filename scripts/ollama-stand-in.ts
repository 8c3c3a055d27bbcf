import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import * as v from "valibot";
import { chatRequest, type StandInTemplate } from "./ollama-stand-in-chat.js";

/**
 * A STAND-IN for Ollama (no Ollama can be installed on these machines): the part of Ollama's
 * documented API that inkpress uses (`/api/version`, `/api/tags`, `/api/show`, `/api/generate`, `/api/chat`),
 * served over real HTTP, backed by a real llama-server so the text is a real model's. Like Ollama
 * it streams NDJSON, ends with `done_reason` and the counts (`prompt_eval_count` includes cached
 * tokens), answers errors as `{"error": "…"}`, turns a `format` JSON schema into a grammar (here
 * llama-server's `json_schema`: the same llama.cpp converter Ollama's runner uses), and ends an
 * answer on more than 30 tokens in a row of the same trimmed text (its repeat guard).
 *
 * It is stricter than Ollama in one way, on purpose: Ollama ignores unknown fields and options
 * (Go's JSON decoder, a logged "invalid option"), the stand-in refuses them with 400, so a misspelt
 * field fails a test instead of being silently dropped. Wrong types are refused as Ollama does.
 * It runs no Go template: `/api/generate` serves raw prompts only (`raw: true`), and `/api/chat`
 * only a model given a template the stand-in runs in TypeScript (`ollama-stand-in-chat.ts`).
 */

/** Ollama's documented `options` (api/types.go), each with its type. */
const OPTIONS = v.strictObject({
  num_keep: v.optional(v.number()),
  seed: v.optional(v.number()),
  num_predict: v.optional(v.number()),
  top_k: v.optional(v.number()),
  top_p: v.optional(v.number()),
  min_p: v.optional(v.number()),
  typical_p: v.optional(v.number()),
  repeat_last_n: v.optional(v.number()),
  temperature: v.optional(v.number()),
  repeat_penalty: v.optional(v.number()),
  presence_penalty: v.optional(v.number()),
  frequency_penalty: v.optional(v.number()),
  stop: v.optional(v.array(v.string())),
  num_ctx: v.optional(v.number()),
  num_batch: v.optional(v.number()),
  num_gpu: v.optional(v.number()),
  main_gpu: v.optional(v.number()),
  use_mmap: v.optional(v.boolean()),
  num_thread: v.optional(v.number()),
});

/** `format`: JSON, or a JSON schema. */
const FORMAT = v.union([v.literal("json"), v.record(v.string(), v.unknown())]);

/** `POST /api/generate`'s documented fields. */
const GENERATE = v.strictObject({
  model: v.string(),
  prompt: v.optional(v.string()),
  suffix: v.optional(v.string()),
  images: v.optional(v.array(v.string())),
  format: v.optional(FORMAT),
  options: v.optional(OPTIONS),
  system: v.optional(v.string()),
  template: v.optional(v.string()),
  stream: v.optional(v.boolean()),
  raw: v.optional(v.boolean()),
  keep_alive: v.optional(v.union([v.string(), v.number()])),
  context: v.optional(v.array(v.number())),
  think: v.optional(v.boolean()),
});

const CHAT = chatRequest(OPTIONS, FORMAT);

const SHOW = v.strictObject({ model: v.optional(v.string()), name: v.optional(v.string()), verbose: v.optional(v.boolean()) });

/** A request of either endpoint that writes. */
type Body = v.InferOutput<typeof GENERATE> | v.InferOutput<typeof CHAT>;

/** What a writing request asked: its endpoint, its body, and the prompt it makes. */
type Asked = Pick<StandInCall, "path" | "body" | "prompt">;

/** What one `/api/generate` or `/api/chat` call asked and what llama-server did with it. */
export interface StandInCall {
  path: "/api/generate" | "/api/chat";
  body: Body;
  /** The prompt that reached the model: the raw one, or the chat template applied to the messages. */
  prompt: string;
  /** Prompt tokens llama-server really evaluated (its cache not counted). */
  evaluated: number;
  /** All prompt tokens: what the stand-in reported as `prompt_eval_count`. */
  promptTokens: number;
  generated: number;
}

/** How to start the stand-in. */
export interface StandInOptions {
  /** The llama-server that writes. */
  llama: { url: string };
  /** The model's name in `/api/tags`. @default "stories260k:latest" */
  model?: string;
  /** More models `/api/tags` lists (they cannot write). @default none */
  others?: string[];
  /**
   * The model's Ollama template: its text alone (`/api/show` reports it, `/api/chat` is refused),
   * or a template the stand-in runs on `/api/chat`.
   * @default "{{ .Prompt }}" (a completion model)
   */
  template?: string | StandInTemplate;
  /** Its trained context, as `/api/show`'s `model_info` says. @default llama-server's slot context */
  trainedContext?: number;
  /** A port to listen on (a restart takes the same one). @default a free one */
  port?: number;
}

/** The running stand-in. */
export interface OllamaStandIn {
  url: string;
  port: number;
  /** The trained context `/api/show` reports. */
  context: number;
  /** Every `/api/generate` and `/api/chat` call, in order. */
  calls: StandInCall[];
  /** `/api/generate` and `/api/chat` requests whose client connection is still open. */
  open(): number;
  /** Close at once, every connection cut mid-answer. */
  stop(): Promise<void>;
}

/** Start the stand-in on a free loopback port (or `options.port`). */
export async function startOllamaStandIn(options: StandInOptions): Promise<OllamaStandIn> {
  const calls: StandInCall[] = [];
  const model = options.model ?? "stories260k:latest";
  const props = (await (await fetch(`${options.llama.url}/props`)).json()) as { default_generation_settings: { n_ctx: number } };
  const context = options.trainedContext ?? props.default_generation_settings.n_ctx;
  let open = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    route(request, response, { ...options, model, trainedContext: context }, calls, (delta) => (open += delta)).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, { error: (error as Error).message });
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    context,
    calls,
    open: () => open,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return JSON.parse(text);
}

/** A valibot failure as Go's JSON decoder words a wrong type (the stand-in's unknown-field refusal too). */
function goError(issues: v.GenericIssue[], struct: string): string {
  const issue = issues[0]!;
  const field = issue.path?.map((p) => p.key).join(".") ?? "";
  if (issue.type === "strict_object") return `json: unknown field "${field}"`;
  return `json: cannot unmarshal ${typeof issue.input} into Go struct field ${struct}.${field} of type ${issue.expected}`;
}

type Routed = StandInOptions & { model: string };

async function route(request: IncomingMessage, response: ServerResponse, o: Routed, calls: StandInCall[], track: (d: number) => void) {
  const path = new URL(request.url ?? "/", "http://stand-in").pathname;
  if (request.method === "GET" && path === "/") return void response.end("Ollama is running");
  if (request.method === "GET" && path === "/api/version") return reply(response, 200, { version: "0.12.6" });
  if (request.method === "GET" && path === "/api/tags") {
    const names = [o.model, ...(o.others ?? [])];
    return reply(response, 200, {
      models: names.map((name) => ({ name, model: name, modified_at: "2026-01-01T00:00:00Z", size: 1, digest: "0", details: {} })),
    });
  }
  if (request.method !== "POST" || !["/api/show", "/api/generate", "/api/chat"].includes(path))
    return void response.writeHead(404, { "content-type": "text/plain" }).end("404 page not found");
  let json: unknown;
  try {
    json = await readJson(request);
  } catch {
    return reply(response, 400, { error: "invalid character in JSON body" });
  }
  if (path === "/api/show") {
    const show = v.safeParse(SHOW, json);
    if (!show.success) return reply(response, 400, { error: goError(show.issues, "ShowRequest") });
    const name = show.output.model ?? show.output.name;
    if (name !== o.model) return reply(response, 404, { error: `model '${name}' not found` });
    return reply(response, 200, {
      modelfile: `FROM ${o.model}`,
      parameters: "",
      template: typeof o.template === "object" ? o.template.text : (o.template ?? "{{ .Prompt }}"),
      details: { format: "gguf", family: "llama" },
      model_info: { "general.architecture": "llama", "llama.context_length": o.trainedContext },
      capabilities: ["completion"],
    });
  }
  const asked = prompted(path as StandInCall["path"], json, o);
  if (typeof asked === "string") return reply(response, 400, { error: asked });
  if (asked.body.model !== o.model) return reply(response, 404, { error: `model '${asked.body.model}' not found, try pulling it first` });
  track(1);
  response.on("close", () => track(-1));
  await generate(asked, response, o, calls);
}

/** A writing request, checked, with the prompt it makes; or why it is refused. */
function prompted(path: StandInCall["path"], json: unknown, o: Routed): Asked | string {
  if (path === "/api/chat") {
    const chat = v.safeParse(CHAT, json);
    if (!chat.success) return goError(chat.issues, "ChatRequest");
    if (typeof o.template !== "object") return "the stand-in runs no Go template: this model has no template it can apply to messages";
    return { path, body: chat.output, prompt: o.template.render(chat.output.messages) };
  }
  const generate = v.safeParse(GENERATE, json);
  if (!generate.success) return goError(generate.issues, "GenerateRequest");
  if (generate.output.raw !== true) return "the stand-in serves raw prompts only (it runs no Go template)";
  return { path, body: generate.output, prompt: generate.output.prompt ?? "" };
}

/** One `/api/generate` or `/api/chat` through llama-server's `/completion`, streamed back as Ollama streams. */
async function generate(asked: Asked, response: ServerResponse, o: Routed, calls: StandInCall[]) {
  const { body } = asked;
  const aborted = new AbortController();
  response.on("close", () => aborted.abort());
  const opts = body.options ?? {};
  const upstream = await fetch(`${o.llama.url}/completion`, {
    method: "POST",
    signal: aborted.signal,
    body: JSON.stringify({
      prompt: asked.prompt,
      stream: true,
      cache_prompt: true,
      n_predict: opts.num_predict ?? -1,
      ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      ...(opts.stop ? { stop: opts.stop } : {}),
      ...pick(opts, ["temperature", "top_k", "top_p", "min_p", "repeat_penalty", "repeat_last_n"]),
      ...(body.format === undefined ? {} : { json_schema: body.format === "json" ? {} : body.format }),
      timings_per_token: true,
    }),
  }).catch(() => undefined);
  // Ollama answers a schema it cannot turn into a grammar, or a runner that failed, with 500.
  if (!upstream?.ok) return reply(response, 500, { error: upstream ? await upstream.text() : "llama runner process has terminated" });
  const write = (line: object) =>
    response.write(`${JSON.stringify({ model: body.model, created_at: new Date().toISOString(), ...line })}\n`);
  const streaming = body.stream !== false;
  if (streaming) response.writeHead(200, { "content-type": "application/x-ndjson" });
  const call: StandInCall = { ...asked, evaluated: 0, promptTokens: 0, generated: 0 };
  calls.push(call);
  // `/api/chat` answers in a message, `/api/generate` in `response`.
  const answer = (text: string) => (asked.path === "/api/chat" ? { message: { role: "assistant", content: text } } : { response: text });
  let outcome: Relayed;
  try {
    outcome = await relay(upstream, call, (piece) => streaming && write({ ...answer(piece), done: false }), aborted);
  } catch (error) {
    if (response.destroyed) return;
    const message = (error as Error).message;
    return void (streaming ? response.end(`${JSON.stringify({ error: message })}\n`) : reply(response, 500, { error: message }));
  }
  const last = {
    done: true,
    done_reason: outcome.guarded || outcome.stopType !== "limit" ? "stop" : "length",
    total_duration: 1,
    load_duration: 0,
    prompt_eval_count: call.promptTokens,
    prompt_eval_duration: 1,
    eval_count: call.generated,
    eval_duration: 1,
  };
  if (!streaming)
    return reply(response, 200, { model: body.model, created_at: new Date().toISOString(), ...answer(outcome.text), ...last });
  write({ ...answer(""), ...last });
  response.end();
}

/** How llama-server's answer ended. */
interface Relayed {
  text: string;
  stopType: string | undefined;
  /** Ended by the repeat guard. */
  guarded: boolean;
}

/** llama-server's SSE answer, piece by piece to `send`, with Ollama's repeat guard; fills in `call`'s counts. */
async function relay(upstream: Response, call: StandInCall, send: (piece: string) => void, aborted: AbortController): Promise<Relayed> {
  const out: Relayed = { text: "", stopType: undefined, guarded: false };
  let run = { last: "", count: 0 };
  const decoder = new TextDecoder();
  const reader = upstream.body!.getReader();
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error("llama runner process has terminated");
    const lines = (rest + decoder.decode(value, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines.filter((l) => l.startsWith("data: "))) {
      const event = JSON.parse(line.slice(6));
      if (event.timings?.prompt_n !== undefined) call.evaluated = event.timings.prompt_n;
      if (event.content) {
        const trimmed = event.content.trim();
        run = { last: trimmed, count: trimmed === run.last ? run.count + 1 : 1 };
        call.generated++;
        send(event.content);
        out.text += event.content;
        // Ollama's runner: more than 30 tokens in a row of the same trimmed text end the answer, with no error.
        if (run.count > 30) {
          out.guarded = true;
          aborted.abort();
          call.promptTokens = call.evaluated;
          return out;
        }
      }
      if (event.stop) {
        out.stopType = event.stop_type;
        call.promptTokens = event.tokens_evaluated ?? call.evaluated;
        call.generated = event.tokens_predicted ?? call.generated;
        return out;
      }
    }
  }
}

function pick<T extends object>(object: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]])) as Partial<T>;
}
