import type { Writer } from "../../src/model/backend.js";
import { SlotPool } from "../../src/model/pool.js";
import type { BackendReport, ReportingBackend } from "../../src/model/report.js";
import { FakeWriter, continuations, distinctSentences, proseModel, rootItems, type ProseItem, type Script, type Step } from "./fake-writer.js";

/**
 * A backend whose writers are scripted {@link FakeWriter}s, for HTTP tests served in-process:
 * the article engine, the routes, limits and jobs all run for real, and the "model" answers
 * in microseconds. Each writer plays {@link articleModel}: the outline's grammar filled as a
 * model following it would, then endless distinct prose.
 */
export class FakeBackend implements ReportingBackend {
  readonly name = "inkpress-fake";
  readonly prompting = "completion" as const;
  readonly contextSize = 4096;
  /** Two slots, as a 4-core server has by default. */
  readonly slots: SlotPool<number>;

  private readonly prose: (() => Iterator<ProseItem>) | undefined;

  /**
   * `queueSize`: requests that may wait for a slot, as `--queue-size` says. @default 16
   * `prose`: the sentences each article's body is written from. @default endless distinct sentences
   */
  constructor({ queueSize = 16, prose }: { queueSize?: number; prose?: () => Iterator<ProseItem> } = {}) {
    this.slots = new SlotPool([0, 1], queueSize);
    this.prose = prose;
  }

  async writer(signal?: AbortSignal): Promise<Writer> {
    const slot = await this.slots.acquire(signal);
    const writer = new FakeWriter(articleModel(this.prose?.() ?? distinctSentences()));
    const dispose = writer.dispose.bind(writer);
    // The slot goes back once, however often the writer is disposed.
    writer.dispose = async () => {
      if (!writer.disposed) this.slots.release(slot);
      await dispose();
    };
    return writer;
  }

  async report(): Promise<BackendReport> {
    return { kind: "in-process", gpu: "cpu", gpuLayers: 0, layers: 0 };
  }

  async dispose(): Promise<void> {
    this.slots.close();
  }
}

/** Words the fake model fills outline fields with: distinct, so no two headings repeat. */
const VOCABULARY = [
  "garden", "winter", "simple", "careful", "steady", "patient", "useful", "local", "early", "bright",
  "modern", "quiet", "honest", "daily", "gentle", "proven", "shared", "small", "clever", "friendly",
  "seasonal", "practical", "natural", "healthy", "lasting", "common", "helpful", "tidy", "clear", "warm",
];

/**
 * A plain-completion model that follows the outline grammar (GrammarBuilder's fields: a
 * word range, perhaps a keyword, perhaps a closing mark) with a few words per title or
 * heading and about 130 characters of description, and writes distinct prose for the body.
 */
function articleModel(sentences: Iterator<ProseItem>): Script {
  const prose = proseModel(sentences, continuations());
  let word = 0;
  const nextWord = () => {
    const w = VOCABULARY[word % VOCABULARY.length]!;
    const round = Math.floor(word++ / VOCABULARY.length);
    return round ? `${w}${"s".repeat(round)}` : w;
  };
  return (step) => {
    const grammar = step.options.grammar;
    if (!grammar || !/^f\d+ ::= /m.test(grammar)) return prose(step);
    const rules = new Map([...grammar.matchAll(/^(f\d+) ::= (.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    const text = rootItems(grammar)
      .map((item) => ("literal" in item ? item.literal : fillField(rules.get(item.field) ?? "", nextWord)))
      .join("");
    const pieces: Step["pieces"] = text.match(/\s*\S+|\s+/gu) ?? [];
    return { pieces };
  };
}

const clamp = (n: number, least: number, most: number) => Math.min(Math.max(n, least), Math.max(least, most));
const unquote = (s: string) => s.replace(/\\(.)/g, (_, c: string) => ({ n: "\n", t: "\t", r: "\r" })[c] ?? c);

/** Text that one field rule of GrammarBuilder accepts, with the fewest words it allows. */
function fillField(rule: string, nextWord: () => string): string {
  const end = /"((?:[^"\\]|\\.)*)"$/.exec(rule)?.[1];
  const closing = end === undefined ? "" : unquote(end);
  // Scripts without spaces: `c{min,max}` characters, after the keyword when there is one.
  if (rule.startsWith("c{")) {
    const keyword = keywordOf(rule.replace(/^c\{0,\d+\} /, ""));
    const least = /c\{(\d+),\d+\}(?: "[^"]*")?$/.exec(rule)?.[1];
    return `${keyword ?? ""}${"字".repeat(Math.max(1, Number(least ?? 1)))}${closing}`;
  }
  const keyword = keywordOf(rule.replace(/^\(/, ""));
  if (keyword === undefined) {
    const repeat = /\(" " w\)\{(\d+),(\d+)\}/.exec(rule);
    const count = 2 + (repeat ? clamp(1, Number(repeat[1]), Number(repeat[2])) : 0);
    const words = Array.from({ length: count }, nextWord);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(" ")}${closing}`;
  }
  // The first alternative puts the keyword first; its tail says how many words must follow.
  const first = firstAlternative(rule);
  const repeat = /\{(\d+),(\d+)\}/.exec(first);
  const least = /\)\?$/.test(first) ? 0 : repeat ? Number(repeat[1]) + 1 : /\bwl\b/.test(first) ? 1 : 0;
  const most = repeat ? Number(repeat[2]) + 1 : /\bwl\b/.test(first) ? 1 : 0;
  // A description (closed by a full stop) of about 130 characters; a title or heading of a few words.
  const tail = clamp(closing === "." ? 15 : 2, least, most);
  const words = Array.from({ length: tail }, nextWord);
  const opening = keyword.charAt(0).toUpperCase() + keyword.slice(1);
  return `${[opening, ...words].join(" ")}${closing}`;
}

/** The keyword a field rule starts with (`("K" | "k") "eyword"` or `"Keyword"`), if it has one. */
function keywordOf(rule: string): string | undefined {
  const cased = /^\("((?:[^"\\]|\\.)+)" \| "((?:[^"\\]|\\.)+)"\)(?: "((?:[^"\\]|\\.)*)")?/.exec(rule);
  if (cased) return unquote(cased[2]! + (cased[3] ?? ""));
  const plain = /^"((?:[^"\\]|\\.)+)"(?: "((?:[^"\\]|\\.)*)")?/.exec(rule);
  return plain ? unquote(plain[1]! + (plain[2] ?? "")) : undefined;
}

/** The first alternative of a rule written `(a | b | …)end`, read up to its first top-level bar. */
function firstAlternative(rule: string): string {
  let depth = 0;
  let quoted = false;
  for (let i = 1; i < rule.length; i++) {
    const c = rule[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return rule.slice(1, i);
      depth--;
    } else if (c === "|" && depth === 0) return rule.slice(1, i).trim();
  }
  return rule;
}
