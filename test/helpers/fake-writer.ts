import type { GenerateOptions, Prompt, StopReason, Usage, Writer } from "../../src/model/backend.js";
import { QUOTED_TEXT } from "../../src/article/body/step.js";

/**
 * A scripted stand-in for the model behind the {@link Writer} interface: each `generate`
 * step yields the text pieces a script gives it, one piece per token, and keeps `text`,
 * `usage` and `stopReason` the way a real writer does. Grammars are not enforced: the
 * script writes text of the requested shape itself. Everything done to the writer is
 * recorded in `events`, so a test can see what code forced, cut and asked for.
 */

/** What a script sees when a step starts. */
export interface StepContext {
  /** 0-based number of this `generate` call. */
  index: number;
  options: GenerateOptions;
  /** The writer, to read `text` as it grows while the step runs. */
  writer: FakeWriter;
}

/** What one step writes: its pieces (each one token, read lazily), and how it ends when they run out. */
export interface Step {
  pieces: Iterable<string>;
  /** Why the step ends once the pieces run out before `maxTokens`. @default "end" */
  stop?: "end" | "length";
}

export type Script = (step: StepContext) => Step;

export type WriterEvent =
  | { type: "begin"; prompt: Prompt }
  | { type: "append"; text: string; before: string }
  | { type: "truncate"; length: number; removed: string }
  | { type: "pin"; at: number }
  | { type: "generate"; index: number; options: GenerateOptions; text: string }
  | { type: "piece"; text: string }
  | { type: "stop"; reason: StopReason; text: string }
  | { type: "dispose" };

/** Split text into token-like pieces: each word with the spaces before it. */
export function tokens(text: string): string[] {
  return text.match(/\s*\S+|\s+/gu) ?? [];
}

export class FakeWriter implements Writer {
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };
  text = "";
  stopReason: StopReason = "end";
  readonly events: WriterEvent[] = [];
  /** The `generate` calls so far. */
  steps = 0;
  disposed = false;
  /** A step past this many throws: a code path that never stops fails instead of hanging. */
  maxSteps = 2000;

  constructor(private readonly script: Script) {}

  async begin(prompt: Prompt): Promise<void> {
    this.events.push({ type: "begin", prompt });
    this.text = "";
  }

  append(text: string): void {
    if (!text) return;
    this.events.push({ type: "append", text, before: this.text });
    this.text += text;
    this.usage.promptTokens += tokens(text).length;
  }

  truncate(length: number): void {
    if (!(length < this.text.length)) return;
    this.events.push({ type: "truncate", length, removed: this.text.slice(Math.max(0, length)) });
    this.text = this.text.slice(0, Math.max(0, length));
  }

  pin(): void {
    this.events.push({ type: "pin", at: this.text.length });
  }

  async *generate(options: GenerateOptions): AsyncGenerator<string, void, undefined> {
    const index = this.steps++;
    if (index >= this.maxSteps) throw new Error(`FakeWriter: more than ${this.maxSteps} generate steps`);
    this.events.push({ type: "generate", index, options, text: this.text });
    const step = this.script({ index, options, writer: this });
    let produced = 0;
    let reason: StopReason = "caller";
    try {
      for (const piece of step.pieces) {
        if (produced >= options.maxTokens) {
          reason = "length";
          return;
        }
        options.signal?.throwIfAborted();
        produced++;
        this.usage.completionTokens++;
        this.text += piece;
        this.events.push({ type: "piece", text: piece });
        yield piece;
      }
      reason = produced >= options.maxTokens ? "length" : (step.stop ?? "end");
    } finally {
      this.stopReason = reason;
      this.events.push({ type: "stop", reason, text: this.text });
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.events.push({ type: "dispose" });
  }

  /** The text the writer held at the start of every step, in order. */
  textsAtSteps(): string[] {
    return this.events.flatMap((e) => (e.type === "generate" ? [e.text] : []));
  }

  /** Everything appended (forced text), in order. */
  appended(): string[] {
    return this.events.flatMap((e) => (e.type === "append" ? [e.text] : []));
  }

  /** Everything cut back, in order. */
  removed(): string[] {
    return this.events.flatMap((e) => (e.type === "truncate" ? [e.removed] : []));
  }
}

/** A script that plays fixed steps in order, then writes nothing. */
export function scripted(steps: ReadonlyArray<Step | string>): Script {
  return ({ index }) => {
    const step = steps[index];
    if (step === undefined) return { pieces: [] };
    return typeof step === "string" ? { pieces: tokens(step) } : step;
  };
}

/**
 * One thing a prose model writes: a sentence (a space is put before it mid-line), or raw
 * text that may end the step. An `insist` sentence is written again in a later step until
 * code has read it whole (a token after it was generated): the model insists on it.
 */
export type ProseItem = string | { raw: string; stop?: "end" | "length" } | { insist: string };

/** Whether the text ends inside a sentence that code opened (a prefilled keyword). */
function midSentence(text: string): boolean {
  const line = text.slice(text.lastIndexOf("\n") + 1).replace(/^- /, "");
  return line.trim() !== "" && !/[.!?。！？]["'”’»)\]]*\s*$/u.test(line) && !line.startsWith("#");
}

/**
 * A model that continues prose: a step that is steered by a grammar (the one-token word
 * boundary after a prefilled keyword) writes a space; it ignores the quotation grammar of free
 * steps (so the gate's own check of quotations is tested); a free step first finishes a
 * sentence code opened (with `continuation()`), then writes items from `source`, pulled
 * only as tokens are read, so what a step cut off is never written again (unless it insists).
 */
export function proseModel(source: Iterator<ProseItem>, continuation: () => string): Script {
  const again: ProseItem[] = [];
  return ({ options, writer }) => {
    // Free text comes under the quotation grammar; any other grammar is a one-token word boundary.
    if (options.grammar && !options.grammar.endsWith(QUOTED_TEXT)) return { pieces: [" "] };
    let stop: "end" | "length" | undefined;
    function* pieces(): Generator<string> {
      // The answer's last two characters, kept as it grows by what this step writes: reading the
      // whole answer once per sentence would copy it each time (a cost the engine bench counts).
      let tail = writer.text.slice(-2);
      function* say(text: string): Generator<string> {
        yield* tokens(text);
        tail = (tail + text).slice(-2);
      }
      if (midSentence(writer.text)) yield* say(`${/\s$/.test(writer.text) ? "" : " "}${continuation()}`);
      /** The insisting sentence being written, or written but not yet followed by a token. */
      let pending: ProseItem | undefined;
      let finished = false;
      try {
        for (;;) {
          const next = again.length ? { done: false as const, value: again.shift()! } : source.next();
          if (next.done) {
            finished = true;
            return;
          }
          const item = next.value;
          // Once this item's first token is out, the one before it can be read whole.
          pending = typeof item === "object" && "insist" in item ? item : undefined;
          if (typeof item === "string" || "insist" in item) {
            const sentence = typeof item === "string" ? item : item.insist;
            const lineStart = tail === "" || tail.endsWith("\n") || tail === "- ";
            yield* say(`${lineStart ? "" : " "}${sentence}`);
          } else {
            yield* say(item.raw);
            if (item.stop) {
              stop = item.stop;
              finished = true;
              return;
            }
          }
        }
      } finally {
        // Cut off before code could read it whole: the model writes it again later.
        if (pending && !finished) again.push(pending);
      }
    }
    const step: Step = {
      pieces: pieces(),
      get stop() {
        return stop;
      },
    };
    return step;
  };
}

/**
 * Endless distinct sentences of ten words with varied openings: the slot lists have
 * pairwise coprime lengths, so no two sentences are equal and neighbours never open alike.
 */
export function* distinctSentences(start = 0): Generator<string> {
  const slots = [
    ["Often", "Usually", "Sometimes", "Later", "Today", "Meanwhile", "Ideally", "Naturally", "Eventually", "Clearly", "Typically"],
    ["home gardeners", "city growers", "careful beginners", "busy families", "school groups", "allotment keepers", "patient growers", "weekend helpers", "local farmers"],
    ["add", "turn", "check", "water", "cover", "sort", "gather"],
    ["dry leaves", "coffee grounds", "grass clippings", "vegetable peelings", "shredded cardboard", "eggshell pieces", "straw bundles", "wood chips"],
    ["near the garden shed", "before the first frost", "after every heavy rain", "in the early morning", "with a steady hand"],
  ];
  for (let n = start; ; n++) {
    const [opener, ...rest] = slots.map((options) => options[n % options.length]!);
    yield `${opener}, ${rest.join(" ")}.`;
  }
}

/** Endless distinct endings for a sentence code opened with a keyword: six words or more with the keyword. */
export function continuations(): () => string {
  const verbs = ["help", "feed", "protect", "improve", "support", "enrich", "warm", "shelter", "serve", "reward", "change"];
  const whom = ["small gardens", "busy cooks", "young trees", "new growers", "raised beds", "old lawns", "shared plots"];
  const when = ["every single season", "through the winter", "during dry summers", "from the first week", "in every climate"];
  let n = 0;
  return () => {
    const i = n++;
    return `${verbs[i % verbs.length]} ${whom[i % whom.length]} ${when[i % when.length]}.`;
  };
}

/** One element of a grammar's root rule: forced text, or a field rule the model fills. */
export type RootItem = { literal: string } | { field: string };

/**
 * The root rule of a GBNF grammar as GrammarBuilder writes it (`root ::= "lit" f0 "lit" f1 …`),
 * read back: what a model following the grammar must force, and where it writes a field.
 */
export function rootItems(grammar: string): RootItem[] {
  const root = grammar.split("\n").find((line) => line.startsWith("root ::= "));
  if (!root) throw new Error(`no root rule in ${grammar}`);
  const unescape = (s: string) => s.replace(/\\(.)/g, (_, c: string) => ({ n: "\n", t: "\t", r: "\r" })[c] ?? c);
  return [...root.slice("root ::= ".length).matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
    m[2] === undefined ? { literal: unescape(m[1]!) } : { field: m[2] },
  );
}
