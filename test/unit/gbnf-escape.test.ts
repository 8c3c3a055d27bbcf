import { describe, expect, it } from "vitest";
import { accepts, grammarLlama } from "../helpers/grammar.js";
import { charClass, escapeChar, literal } from "../../src/article/gbnf/escape.js";
import { freeTextGrammar, notWord } from "../../src/article/gbnf/free-text.js";
import { GrammarBuilder } from "../../src/article/gbnf/grammar.js";
import { cleanText } from "../../src/contract/request.js";

// Every user string reaches a grammar through escapeChar. llama.cpp's own parser (node-llama-cpp's
// grammar creation) reads each grammar back: it must parse, and match the character as itself.

/** Every printable ASCII character. */
const ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
/** What GBNF's syntax reads: quotes, brackets, escapes, ranges, negation, repetition, alternatives, rule names. */
const META = [
  '"',
  "\\",
  "[",
  "]",
  "^",
  "-",
  "(",
  ")",
  "{",
  "}",
  "|",
  "*",
  "+",
  "?",
  ".",
  ":",
  "=",
  "#",
  "::=",
  "\\x41",
  "\\u0041",
  '\\"',
  "\\]",
  "a-z",
  "^x",
];
/** Code points outside ASCII a request can hold, raw and as the request's clean-up leaves them. */
const NON_ASCII = [
  "é",
  "e\u0301",
  "\u0301",
  "\u0308a",
  "ß",
  "İ",
  "ﬁ",
  "\u200f",
  "\u200e",
  "\u061c",
  "\u202e",
  "שלום",
  "مرحبا",
  "🙂",
  "👍🏽",
  "👨‍👩‍👧",
  "🇩🇪",
  "❤️",
  "\u{1d54f}",
  "\ud800",
  "\udc00",
  "a\ud83d",
  "\ufffd",
  "\u00a0",
  "\u2028",
  "\u3000",
  "観葉植物",
  "\u200d",
];
const SAMPLES = [...ASCII, ...META, ...NON_ASCII.map(cleanText).filter(Boolean)];

describe("escaping for GBNF, read back by llama.cpp", () => {
  const llama = grammarLlama();
  const parse = (grammar: string) => llama().createGrammar({ grammar });

  it("the parser refuses the escapes llama.cpp does not know (the check below can fail)", async () => {
    await expect(parse("root ::= [^\\^]")).rejects.toThrow();
    await expect(parse('root ::= "\\q"')).rejects.toThrow();
  });

  it("lone surrogates are gone after the request's clean-up", () => {
    expect(cleanText("a\ud800b\udc00")).toBe("a\ufffdb\ufffd");
  });

  it("a lone surrogate that escaped the clean-up still leaves a grammar that parses", async () => {
    await expect(parse(`root ::= ${literal("a\ud800")} ${charClass(["\udc00"], true)}`)).resolves.toBeDefined();
  });

  it.each(SAMPLES.map((s) => [JSON.stringify(s), s]))("%s: a literal matches exactly itself", async (_, text) => {
    const grammar = await parse(`root ::= "<" ${literal(text)} ">"`);
    expect(accepts(grammar, `<${text}>`)).toBe(true);
    expect(accepts(grammar, `<${text}x>`)).toBe(false);
  });

  it.each(SAMPLES.filter((s) => [...s].length === 1).map((s) => [JSON.stringify(s), s]))(
    "%s: in a class and a negated class",
    async (_, char) => {
      const grammar = await parse(`root ::= ${charClass([char, "z"])} "!"`);
      expect(accepts(grammar, `${char}!`)).toBe(true);
      expect(accepts(grammar, "y!")).toBe(char === "y");
      const negated = await parse(`root ::= ${charClass([char, "z"], true)} "!"`);
      expect(accepts(negated, `${char}!`)).toBe(false);
      expect(accepts(negated, "y!")).toBe(char !== "y");
    },
  );

  it.each(SAMPLES.map((s) => [JSON.stringify(s), s]))(
    "%s: as a keyword, a refused word, a word a sentence may not open with and a link's anchor phrase",
    async (_, text) => {
      const keyword = new GrammarBuilder(true).add([{ field: { words: [2, 8], keyword: `x${text}y`, before: 2 } }]).build();
      await expect(parse(keyword)).resolves.toBeDefined();
      await expect(parse(freeTextGrammar({ pending: "Once upon a", spaced: true, refuse: [text] }))).resolves.toBeDefined();
      await expect(parse(freeTextGrammar({ pending: 'He said, "Come', spaced: true, refuse: [text] }))).resolves.toBeDefined();
      await expect(parse(freeTextGrammar({ pending: "", spaced: true, notOpening: text }))).resolves.toBeDefined();
      await expect(
        parse(freeTextGrammar({ pending: "We went to the", spaced: true, choose: [` ${text}`, " compost bin"] })),
      ).resolves.toBeDefined();
      await expect(parse(freeTextGrammar({ pending: "We went to the", spaced: false, choose: [text] }))).resolves.toBeDefined();
    },
  );

  it("a refused word made of grammar characters is refused, and other text is not", async () => {
    const grammar = await parse(`root ::= ${notWord(["x^y"], "tail")}\ntail ::= [a-z ]*`);
    expect(accepts(grammar, "x^y")).toBe(false);
    expect(accepts(grammar, "x^z")).toBe(true);
    expect(accepts(grammar, "other")).toBe(true);
  });

  it("escapes by name where llama.cpp knows a name, else by code point", () => {
    expect(literal('a "b" \\ c\nd\te\r')).toBe('"a \\"b\\" \\\\ c\\nd\\te\\r"');
    expect(escapeChar("^", "class")).toBe("\\x5E");
    expect(escapeChar("^", "literal")).toBe("^");
    expect(escapeChar("\u0001", "literal")).toBe("\\x01");
  });
});
