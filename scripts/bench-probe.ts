/**
 * Timing probe for `npm run bench`: wraps a few node-llama-cpp methods so a run can be
 * taken apart into native decoding, sampling, node-llama-cpp's glue, the consumer's work
 * between tokens (detokenizing, sentence handling), prompt evaluation and tokenizing,
 * without touching `src/`.
 *
 * In the bench process it is installed by calling `installProbe()`. In a server it is
 * preloaded (`node --import …/bench-probe.ts`, with BENCH_PROBE=1 and an IPC channel):
 * the bench then asks for the profile with `{ type: "bench:profile" }`, clears it
 * with `{ type: "bench:reset" }`, forces a full GC (with --expose-gc) with `{ type: "bench:gc" }`,
 * and takes a V8 CPU profile between `{ type: "bench:cpu-start" }` and `{ type: "bench:cpu-stop" }`.
 *
 * The wrappers cost a few `performance.now()` calls per token (about a microsecond).
 */
import type { LlamaContextSequence, SequenceEvaluateOptions, Token } from "node-llama-cpp";

/** One `sequence.evaluate` call: one model call of the engine. */
export interface CallRecord {
  /** Tokens kept from the sequence's previous state (prefix reuse). */
  held: number;
  /** Tokens evaluated for the prompt. */
  input: number;
  /** The full prompt: the kept prefix and the evaluated tokens. */
  prompt: Token[];
  /** Tokens generated (yielded). */
  tokens: number;
  /** From the first `next()` to the first token: prompt evaluation and the first sample. */
  firstMs: number;
  /** Waits in `next()` for the later tokens: decoding and sampling one token each. */
  decodeMs: number;
  /** Time the consumer held a token before asking for the next one. */
  consumerMs: number;
  startedAt: number;
  endedAt: number;
  /** Whether the call was grammar-constrained. */
  grammar: boolean;
  /**
   * Native forward-pass and sampling time while the call ran (the process-wide counters'
   * growth between its start and end): exact when one call runs at a time.
   */
  nativeDecodeMs: number;
  nativeSampleMs: number;
  /** Token ids the call yielded. */
  generated: Token[];
}

/** A duration counter. */
export interface Counter {
  calls: number;
  ms: number;
}

/** Everything the probe measured since the last reset. */
export interface Profile {
  calls: CallRecord[];
  /** Native `decodeBatch` (the llama.cpp forward pass), as awaited from JS. */
  decodeBatch: Counter & { maxMs: number };
  /** `decodeBatch` by batch size: "1", "2", "3", "4" tokens (decode steps of 1–4 sequences), "5+" (prompt evaluation). */
  batches: Record<string, Counter & { tokens: number }>;
  /** Each 1-token `decodeBatch` in order, ms: how a decode step's cost moves as the context grows. */
  steps: number[];
  /** Native `sampleToken`, as awaited from JS. */
  sampleToken: Counter;
  detokenize: Counter & { tokens: number };
  /** `LlamaText.tokenize` (the chat-formatted prompt to tokens). */
  tokenize: Counter;
  /** Chat wrappers' `generateContextState` (prompt formatting). */
  chatFormat: Counter;
  erase: Counter;
  /** The number of calls made when each writer pinned its answer: the outline ends at the first. */
  pins: number[];
  memory?: NodeJS.MemoryUsage;
}

const profile: Profile = emptyProfile();
let installed = false;
/** Whether calls keep a copy of their full prompt (costs a copy of the context per call). */
let capturePrompts = true;

/** Turn the copy of each call's full prompt on or off (off for long runs whose engine time is measured). */
export function setCapturePrompts(on: boolean): void {
  capturePrompts = on;
}

/** Time spent awaiting node-llama-cpp's token generators (`next()` of `sequence.evaluate`), process-wide, never reset. */
let generatorMs = 0;

/**
 * The running totals, cheap to read between tokens (no copy): native forward passes and
 * sampling, 1-token passes, erases, and the time spent inside node-llama-cpp's generators
 * (native work plus node-llama-cpp's own JS per token; not reset by `resetProfile`).
 */
export function nativeTotals(): { decodeMs: number; sampleMs: number; steps: number; eraseMs: number; generatorMs: number } {
  return { decodeMs: profile.decodeBatch.ms, sampleMs: profile.sampleToken.ms, steps: profile.batches["1"]?.calls ?? 0, eraseMs: profile.erase.ms, generatorMs };
}

function emptyProfile(): Profile {
  return {
    calls: [],
    decodeBatch: { calls: 0, ms: 0, maxMs: 0 },
    batches: {},
    steps: [],
    sampleToken: { calls: 0, ms: 0 },
    detokenize: { calls: 0, ms: 0, tokens: 0 },
    tokenize: { calls: 0, ms: 0 },
    chatFormat: { calls: 0, ms: 0 },
    erase: { calls: 0, ms: 0 },
    pins: [],
  };
}

/** Clear every counter. */
export function resetProfile(): void {
  Object.assign(profile, emptyProfile());
}

/** A copy of what was measured so far. */
export function readProfile(): Profile {
  return structuredClone({ ...profile, memory: process.memoryUsage() });
}

interface AddonContextLike {
  initBatch(size: number): void;
  decodeBatch(): Promise<void>;
  sampleToken(...args: unknown[]): Promise<unknown>;
}

const wrappedAddons = new WeakSet<object>();

/** Wrap the native context of a sequence once: decodeBatch and sampleToken. */
function wrapAddon(sequence: LlamaContextSequence): void {
  const addon = (sequence.context as unknown as { _ctx?: AddonContextLike })._ctx;
  if (!addon || wrappedAddons.has(addon)) return;
  wrappedAddons.add(addon);
  const initBatch = addon.initBatch.bind(addon);
  const decodeBatch = addon.decodeBatch.bind(addon);
  const sampleToken = addon.sampleToken.bind(addon);
  let batchSize = 0;
  // The addon's methods are read-only on its prototype: define own properties instead.
  const define = (name: string, value: unknown) => Object.defineProperty(addon, name, { value, configurable: true, writable: true });
  define("initBatch", (size: number) => {
    batchSize = size;
    return initBatch(size);
  });
  define("decodeBatch", async () => {
    const size = batchSize;
    const t0 = performance.now();
    try {
      return await decodeBatch();
    } finally {
      const ms = performance.now() - t0;
      profile.decodeBatch.calls++;
      profile.decodeBatch.ms += ms;
      profile.decodeBatch.maxMs = Math.max(profile.decodeBatch.maxMs, ms);
      const key = size >= 5 ? "5+" : String(size);
      const bucket = (profile.batches[key] ??= { calls: 0, ms: 0, tokens: 0 });
      bucket.calls++;
      bucket.ms += ms;
      bucket.tokens += size;
      if (size === 1) profile.steps.push(ms);
    }
  });
  define("sampleToken", async (...args: unknown[]) => {
    const t0 = performance.now();
    try {
      return await sampleToken(...args);
    } finally {
      profile.sampleToken.calls++;
      profile.sampleToken.ms += performance.now() - t0;
    }
  });
}

type CounterName = "detokenize" | "tokenize" | "chatFormat";

/** Wrap a function to count its calls and time into `profile[name]` (looked up per call: resets replace the counters). */
function timed<A extends unknown[], R>(name: CounterName, fn: (this: unknown, ...args: A) => R, extra?: (args: A) => void) {
  return function (this: unknown, ...args: A): R {
    const t0 = performance.now();
    try {
      return fn.apply(this, args);
    } finally {
      profile[name].calls++;
      profile[name].ms += performance.now() - t0;
      extra?.(args);
    }
  };
}

/**
 * Patch node-llama-cpp's prototypes (once per process). node-llama-cpp is imported only
 * here: it tests its binary in a child process forked with this process's --import
 * flags, and that child must not load the library before its test starts.
 */
export async function installProbe(): Promise<void> {
  if (installed) return;
  installed = true;
  const nlc = await import("node-llama-cpp");
  const { LlamaContextSequence, LlamaModel, LlamaText } = nlc;

  // The engine pins the answer once its outline is written: the calls before are the outline's.
  const { LlamaWriter } = await import("../src/model/llama-writer.js");
  const pin = LlamaWriter.prototype.pin;
  LlamaWriter.prototype.pin = function (this: InstanceType<typeof LlamaWriter>) {
    profile.pins.push(profile.calls.length);
    pin.call(this);
  };
  const evaluate = LlamaContextSequence.prototype.evaluate;
  LlamaContextSequence.prototype.evaluate = function (this: LlamaContextSequence, tokens: Token[], options?: SequenceEvaluateOptions) {
    try {
      wrapAddon(this);
    } catch {
      // Native timings are a bonus: never let the probe break a generation.
    }
    const held = this.nextTokenIndex;
    const record: CallRecord = {
      held,
      input: tokens.length,
      prompt: capturePrompts ? [...this.contextTokens.slice(0, held), ...tokens] : [],
      tokens: 0,
      firstMs: 0,
      decodeMs: 0,
      consumerMs: 0,
      startedAt: performance.now(),
      endedAt: 0,
      grammar: options?.grammarEvaluationState != null,
      nativeDecodeMs: -profile.decodeBatch.ms,
      nativeSampleMs: -profile.sampleToken.ms,
      generated: [],
    };
    profile.calls.push(record);
    const inner = evaluate.call(this, tokens, options);
    let lastYield: number | undefined;
    const release = (at: number) => {
      if (lastYield !== undefined) record.consumerMs += at - lastYield;
      lastYield = undefined;
      if (!record.endedAt) {
        record.endedAt = at;
        record.nativeDecodeMs += profile.decodeBatch.ms;
        record.nativeSampleMs += profile.sampleToken.ms;
      }
    };
    const wrapped: AsyncGenerator<Token, void, void | Token | Token[]> = {
      async next(...args: [] | [void | Token | Token[]]) {
        const t0 = performance.now();
        if (lastYield !== undefined) record.consumerMs += t0 - lastYield;
        lastYield = undefined;
        const result = await inner.next(...args);
        const t1 = performance.now();
        generatorMs += t1 - t0;
        if (record.tokens === 0) record.firstMs += t1 - t0;
        else record.decodeMs += t1 - t0;
        if (result.done) release(t1);
        else {
          record.tokens++;
          if (capturePrompts) record.generated.push(result.value as Token);
          lastYield = t1;
        }
        return result;
      },
      async return(value) {
        release(performance.now());
        return inner.return(value);
      },
      async throw(error) {
        release(performance.now());
        return inner.throw(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    return wrapped;
  };

  const evaluateOnly = LlamaContextSequence.prototype.evaluateWithoutGeneratingNewTokens;
  LlamaContextSequence.prototype.evaluateWithoutGeneratingNewTokens = function (this: LlamaContextSequence, ...args: Parameters<typeof evaluateOnly>) {
    try {
      wrapAddon(this);
    } catch {}
    return evaluateOnly.apply(this, args);
  };

  const erase = LlamaContextSequence.prototype.eraseContextTokenRanges;
  LlamaContextSequence.prototype.eraseContextTokenRanges = async function (this: LlamaContextSequence, ...args: Parameters<typeof erase>) {
    const t0 = performance.now();
    try {
      return await erase.apply(this, args);
    } finally {
      profile.erase.calls++;
      profile.erase.ms += performance.now() - t0;
    }
  };

  const detokenize = LlamaModel.prototype.detokenize;
  LlamaModel.prototype.detokenize = timed("detokenize", detokenize as (this: unknown, ...args: Parameters<typeof detokenize>) => string, (args) => {
    profile.detokenize.tokens += args[0].length;
  });

  // The exported LlamaText is a callable constructor whose prototype inherits the class's.
  const textProto = Object.getPrototypeOf(LlamaText.prototype) as { tokenize: (...args: unknown[]) => Token[] };
  textProto.tokenize = timed("tokenize", textProto.tokenize);

  for (const [name, value] of Object.entries(nlc)) {
    if (!name.endsWith("ChatWrapper") || typeof value !== "function") continue;
    const proto = (value as { prototype?: Record<string, unknown> }).prototype;
    if (!proto || !Object.hasOwn(proto, "generateContextState") || typeof proto.generateContextState !== "function") continue;
    proto.generateContextState = timed("chatFormat", proto.generateContextState as (...args: unknown[]) => unknown);
  }
}

// --- V8 CPU profile of a chosen span, through the inspector (no --cpu-prof: that covers start-up too)

let inspector: import("node:inspector/promises").Session | undefined;

async function startCpuProfile(): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  inspector = new Session();
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.setSamplingInterval", { interval: 200 });
  await inspector.post("Profiler.start");
}

async function stopCpuProfile(): Promise<unknown> {
  if (!inspector) return undefined;
  const { profile } = await inspector.post("Profiler.stop");
  inspector.disconnect();
  inspector = undefined;
  return profile;
}

// Preloaded into a server: install, and answer the bench over the IPC channel.
if (process.env.BENCH_PROBE === "1" && process.send) {
  // Processes this one forks (node-llama-cpp tests its binary in a child with the same
  // --import flags) must not take over their own IPC channel.
  delete process.env.BENCH_PROBE;
  await installProbe();
  process.on("message", (message: { type?: string; id?: number }) => {
    if (message?.type === "bench:reset") {
      resetProfile();
      process.send!({ type: "bench:reset", id: message.id });
    } else if (message?.type === "bench:cpu-start") {
      void startCpuProfile().then(() => process.send!({ type: "bench:cpu-start", id: message.id }));
    } else if (message?.type === "bench:cpu-stop") {
      void stopCpuProfile().then((profile) => process.send!({ type: "bench:cpu-stop", id: message.id, profile }));
    } else if (message?.type === "bench:gc") {
      // Only with --expose-gc: a full collection, so RSS readings compare live memory.
      (globalThis as { gc?: () => void }).gc?.();
      process.send!({ type: "bench:gc", id: message.id });
    } else if (message?.type === "bench:profile") {
      process.send!({ type: "bench:profile", id: message.id, profile: readProfile() });
    }
  });
  // The channel must not keep a server alive that was asked to stop.
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}
