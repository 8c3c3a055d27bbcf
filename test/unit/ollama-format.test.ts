import { describe, expect, it } from "vitest";
import { freeTextGrammar } from "../../src/article/gbnf/free-text.js";
import { fieldGrammar } from "../../src/article/gbnf/grammar.js";
import { ollamaChatFormat } from "../../src/model/remote/ollama-template.js";
import { grammarPattern, grammarSchema, PatternError } from "../../src/model/remote/pattern.js";
import { QuotedText, RepeatRun, TextTokens } from "../../src/model/remote/text-tokens.js";

// What inkpress sends Ollama in place of a GBNF grammar: a `format` schema of one string whose
// pattern is the grammar. Each pattern is read here as a JavaScript regex (the syntax the
// converter writes is one), against texts written for the grammar: those it admits and those it refuses.

const matches = (grammar: string, text: string) => new RegExp(`^(?:${grammarPattern(grammar)})$`).test(text);

describe("a grammar as a format pattern", () => {
  it("an outline field: the keyword where the grammar puts it, the words it allows, the stop after it", () => {
    const grammar = fieldGrammar({ words: [3, 6], keyword: "compost bins" }, "\n", true);
    expect(matches(grammar, "Compost bins for small gardens\n")).toBe(true);
    expect(matches(grammar, "Why compost bins work well\n")).toBe(true);
    // Too few words, no keyword, the stop missing, a word of punctuation.
    expect(matches(grammar, "Compost bins\n")).toBe(false);
    expect(matches(grammar, "Gardens for small people today\n")).toBe(false);
    expect(matches(grammar, "Compost bins for small gardens")).toBe(false);
    expect(matches(grammar, "Compost bins for !! gardens\n")).toBe(false);
  });

  it("a banned word is refused in a field, at the start of any word, in either case", () => {
    const grammar = fieldGrammar({ words: [2, 6] }, "\n", true, { refused: ["delve"] });
    expect(matches(grammar, "Gardens grow slowly\n")).toBe(true);
    expect(matches(grammar, "Gardens delve deep\n")).toBe(false);
    expect(matches(grammar, "Delves into gardens\n")).toBe(false);
  });

  it("free text: quotations close, a refused word cannot open the call", () => {
    const grammar = freeTextGrammar({ pending: "", spaced: true, refuse: ["timeline"] });
    expect(matches(grammar, 'The bins sit outside. She said "keep them moist." Then rain came.')).toBe(true);
    expect(matches(grammar, "Timelines are long.")).toBe(false);
    expect(matches(grammar, 'The "quote runs on\nto the next line.')).toBe(false);
  });

  it("the schema anchors the pattern; a grammar that refers back to itself is refused", () => {
    const schema = grammarSchema('root ::= "a" [b-c]{1,3}');
    expect(schema).toEqual({ type: "string", pattern: "^a[b-c]{1,3}$" });
    expect(() => grammarPattern('root ::= "a" root | "b"')).toThrow(PatternError);
    // Regex syntax in a literal stays literal.
    expect(matches('root ::= "a.b (c)?"', "a.b (c)?")).toBe(true);
    expect(matches('root ::= "a.b (c)?"', "axb c")).toBe(false);
  });
});

describe("reading Ollama's answers", () => {
  it("a format answer's quotes are dropped; a quote inside the text stays", () => {
    const quoted = new QuotedText();
    const pieces = ['"', "She", ' said "', "hi", '"', " now", '"'].map((p) => quoted.take(p));
    expect(pieces.join("") + quoted.finish(true)).toBe('She said "hi" now');
    expect(quoted.closed).toBe(true);
    // Cut by length: a held quote was text.
    const cut = new QuotedText();
    expect(cut.take('"Word "') + cut.finish(false)).toBe('Word "');
    expect(cut.closed).toBe(false);
  });

  it("more than 30 pieces of one trimmed text in a row are the repeat guard", () => {
    const run = new RepeatRun();
    for (let i = 0; i < 30; i++) run.add(i % 2 ? " the" : "the ");
    expect(run.guarded).toBe(false);
    run.add("the");
    expect(run.guarded).toBe(true);
    run.add(" cat");
    expect(run.guarded).toBe(false);
  });

  it("token estimates follow the highest rate a prompt showed", () => {
    const tokens = new TextTokens();
    const text = "x".repeat(1000);
    tokens.learn(1000, 250);
    expect(tokens.count(text)).toBe(275);
    tokens.learn(1000, 200);
    expect(tokens.count(text)).toBe(275);
    expect(tokens.count("")).toBe(0);
  });
});

describe("an Ollama template's chat format", () => {
  it("a template that only places the prompt is a completion model; ChatML is written by node-llama-cpp's wrapper; an unknown one is refused", () => {
    expect(ollamaChatFormat("{{ .Prompt }}", "o")).toEqual({ format: "completion", parts: undefined });
    const chatml = ollamaChatFormat("{{ if .System }}<|im_start|>system\n{{ .System }}<|im_end|>\n{{ end }}", "o");
    expect(chatml?.format).toBe("ChatML");
    expect(chatml?.parts?.before).toBe("<|im_start|>system\n");
    expect(chatml?.parts?.after).toMatch(/<\|im_start\|>assistant\n$/);
    expect(ollamaChatFormat("### User: {{ .Prompt }} ### Bot:", "o")).toBeUndefined();
  });
});
