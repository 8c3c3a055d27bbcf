/**
 * A GBNF grammar (llama.cpp syntax, as `src/article/gbnf/` writes them) as the `pattern` of a
 * JSON-schema string, for a server that constrains output with a JSON schema but takes no GBNF
 * (Ollama's `format`). llama.cpp turns such a pattern back into a grammar (json-schema-to-grammar:
 * `^…$` anchored, groups, alternation, `* + ? {m,n}`, character classes and GBNF's own escapes),
 * so the constraint is the grammar's, inside the string's quotes. Every grammar the engine writes
 * is regular (no rule refers back to itself): its rules are inlined. A recursive one is refused.
 */
import { InkpressError } from "../../errors.js";

/** One piece of a sequence: a literal, a class, a rule's name or a group, and its repeat. */
interface Item {
  kind: "literal" | "class" | "ref" | "group";
  /** The literal's or class's text as GBNF wrote it (escapes kept), or the rule's name. */
  text: string;
  /** For a group: its alternatives. */
  alternatives?: Item[][];
  /** `*`, `+`, `?` or `{m,n}`; "" for none. */
  repeat: string;
}

/** Regex characters that stand for themselves only when escaped (llama.cpp's NON_LITERAL_SET). */
const REGEX_SYNTAX = /^[|.()[\]{}*+?^$]$/u;

/** The grammar cannot be a pattern: it refers back to a rule being defined, or is not GBNF the reader knows (a fault of inkpress, never of a request). */
export class PatternError extends InkpressError {
  constructor(message: string) {
    super(`a grammar cannot be sent as a JSON-schema pattern: ${message}`);
    this.name = "PatternError";
  }
}

/** Reads GBNF text into rules of alternatives. */
class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  rules(): Map<string, Item[][]> {
    const rules = new Map<string, Item[][]>();
    for (;;) {
      this.space(true);
      if (this.at >= this.text.length) return rules;
      const name = this.name();
      this.space(true);
      if (!this.text.startsWith("::=", this.at)) throw new PatternError(`no ::= after ${name}`);
      this.at += 3;
      rules.set(name, this.alternatives(true));
    }
  }

  /** Alternatives up to `)` or, at the top (`top`), the next rule's `name ::=`. */
  private alternatives(top: boolean): Item[][] {
    const out: Item[][] = [[]];
    for (;;) {
      this.space(!top);
      const c = this.text[this.at];
      if (c === undefined || c === ")" || (top && (c === "\n" || this.ruleStarts()))) return out;
      if (c === "|") {
        this.at++;
        out.push([]);
        continue;
      }
      out.at(-1)!.push(this.item());
    }
  }

  private item(): Item {
    const c = this.text[this.at]!;
    let item: Item;
    if (c === '"') item = { kind: "literal", text: this.quoted('"', '"'), repeat: "" };
    else if (c === "[") item = { kind: "class", text: this.quoted("[", "]"), repeat: "" };
    else if (c === "(") {
      this.at++;
      const alternatives = this.alternatives(false);
      if (this.text[this.at] !== ")") throw new PatternError("unclosed group");
      this.at++;
      item = { kind: "group", text: "", alternatives, repeat: "" };
    } else item = { kind: "ref", text: this.name(), repeat: "" };
    const repeat = /^(?:[*+?]|\{\d*(?:,\d*)?\})/u.exec(this.text.slice(this.at))?.[0] ?? "";
    this.at += repeat.length;
    item.repeat = repeat;
    return item;
  }

  /** A literal's or class's text between its delimiters, backslash escapes kept as they are. */
  private quoted(open: string, close: string): string {
    let i = this.at + 1;
    while (i < this.text.length && this.text[i] !== close) i += this.text[i] === "\\" ? 2 : 1;
    if (i >= this.text.length) throw new PatternError(`unclosed ${open}`);
    const inner = this.text.slice(this.at + 1, i);
    this.at = i + 1;
    return inner;
  }

  private name(): string {
    const name = /^[a-zA-Z0-9_-]+/u.exec(this.text.slice(this.at))?.[0];
    if (!name) throw new PatternError(`unexpected ${JSON.stringify(this.text.slice(this.at, this.at + 10))}`);
    this.at += name.length;
    return name;
  }

  /** Skip blanks and comments; line breaks too where `lines`. */
  private space(lines: boolean): void {
    for (;;) {
      const c = this.text[this.at];
      if (c === "#") while (this.at < this.text.length && this.text[this.at] !== "\n") this.at++;
      else if (c === " " || c === "\t" || c === "\r" || (lines && c === "\n")) this.at++;
      else return;
    }
  }

  private ruleStarts(): boolean {
    return /^[a-zA-Z0-9_-]+\s*::=/u.test(this.text.slice(this.at));
  }
}

/** A GBNF literal's text as a regex literal: the grammar's escapes kept (llama.cpp reads them in a pattern too), regex syntax escaped. */
function literalPattern(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      out += text.slice(i, i + escapeLength(text, i));
      i += escapeLength(text, i) - 1;
    } else out += REGEX_SYNTAX.test(text[i]!) ? `\\${text[i]}` : text[i];
  }
  return out;
}

/** Where a pattern's top level splits: whether it holds a `|` outside groups, and whether it is one unit a repeat applies to whole. */
function shape(pattern: string): { alternation: boolean; atomic: boolean } {
  let depth = 0;
  let units = 0;
  let alternation = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (depth === 0 && !"*+?{".includes(c)) units++;
    if (c === "\\") i += escapeLength(pattern, i) - 1;
    else if (c === "[") {
      i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? escapeLength(pattern, i) : 1;
    } else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "{" && depth === 0) i = pattern.indexOf("}", i);
    else if (c === "|" && depth === 0) alternation = true;
  }
  return { alternation, atomic: units === 1 && !/[*+?}]$/u.test(pattern) };
}

/** Characters of the escape at `i`: `\xHH`, `\uHHHH`, `\UHHHHHHHH`, or a backslash and one character. */
function escapeLength(pattern: string, i: number): number {
  return { x: 4, u: 6, U: 10 }[pattern[i + 1] as "x" | "u" | "U"] ?? 2;
}

/** A part as it may stand inside a sequence, with its repeat: in parentheses where the repeat or the sequence would otherwise split it. */
function part(pattern: string, repeat: string): string {
  const { alternation, atomic } = shape(pattern);
  return alternation || (repeat !== "" && !atomic) ? `(${pattern})${repeat}` : `${pattern}${repeat}`;
}

/**
 * The grammar's `root` as a regex without anchors, in the syntax llama.cpp's JSON-schema converter
 * reads. Throws {@link PatternError} for a recursive grammar.
 */
export function grammarPattern(grammar: string): string {
  const rules = new Reader(grammar).rules();
  const done = new Map<string, string>();
  const inlining = new Set<string>();
  const alternatives = (alts: Item[][]): string => alts.map((items) => items.map(item).join("")).join("|");
  const ruleOf = (name: string): string => {
    const found = done.get(name);
    if (found !== undefined) return found;
    const alts = rules.get(name);
    if (!alts) throw new PatternError(`no rule ${name}`);
    if (inlining.has(name)) throw new PatternError(`rule ${name} refers back to itself`);
    inlining.add(name);
    const out = alternatives(alts);
    inlining.delete(name);
    done.set(name, out);
    return out;
  };
  const item = (it: Item): string => {
    if (it.kind === "class") return `[${it.text}]${it.repeat}`;
    if (it.kind === "literal") return part(literalPattern(it.text), it.repeat);
    return part(it.kind === "ref" ? ruleOf(it.text) : alternatives(it.alternatives!), it.repeat);
  };
  return ruleOf("root");
}

/** The JSON schema of a string that follows the grammar: what Ollama's `format` takes. */
export function grammarSchema(grammar: string): { type: "string"; pattern: string } {
  return { type: "string", pattern: `^${grammarPattern(grammar)}$` };
}
