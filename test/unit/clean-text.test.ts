import { describe, expect, it } from "vitest";
import { cleanBlock, cleanText } from "../../src/contract/request.js";

/** Every code point of Unicode's format category (Cf), as this Node's Unicode tables know it. */
function formatCharacters(): string[] {
  const out: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (/\p{Cf}/u.test(char)) out.push(char);
  }
  return out;
}

const hex = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

describe("request text clean-up", () => {
  const cf = formatCharacters();

  it("knows the whole Cf category (more than 160 code points, tags included)", () => {
    expect(cf.length).toBeGreaterThan(160);
    expect(cf).toContain("\u{e0041}");
  });

  it("removes every format character between Latin letters, alone and in runs", () => {
    const kept = cf.filter((char) => cleanText(`a${char}b`) !== "ab").map(hex);
    expect(kept).toEqual([]);
    expect(cleanText(`soft${cf.join("")}ware`)).toBe("software");
    expect(cleanBlock(`line${cf.join("")}one\nline\u00adtwo`)).toBe("lineone\nlinetwo");
  });

  it("removes the ones a review found kept: U+061C, the soft hyphen, U+2061–2064, tags, U+180E, and the Hangul filler U+3164", () => {
    for (const char of [
      "\u061c",
      "\u00ad",
      "\u2061",
      "\u2062",
      "\u2063",
      "\u2064",
      "\u{e0001}",
      "\u{e0067}",
      "\u{e007f}",
      "\u180e",
      "\u3164",
      "\uffa0",
    ]) {
      expect(cleanText(`com${char}post`), hex(char)).toBe("compost");
    }
  });

  it("removes every format character between letters of scripts that need joiners, except ZWJ and ZWNJ", () => {
    for (const char of cf) {
      const expected = char === "\u200c" || char === "\u200d" ? `क्${char}ष` : "क्ष";
      expect(cleanText(`क्${char}ष`), hex(char)).toBe(expected);
    }
  });

  it("keeps ZWNJ in Persian and ZWJ in Indic conjuncts and emoji sequences; drops them anywhere else", () => {
    expect(cleanText("می\u200cخواهم")).toBe("می\u200cخواهم");
    expect(cleanText("ர்\u200dஷ")).toBe("ர்\u200dஷ");
    expect(cleanText("👩\u200d💻 and 👨🏽\u200d🌾 and ❤️\u200d🔥")).toBe("👩\u200d💻 and 👨🏽\u200d🌾 and ❤️\u200d🔥");
    expect(cleanText("com\u200dpost com\u200cpost")).toBe("compost compost");
    expect(cleanText("\u200dक\u200d")).toBe("क");
    expect(cleanText("a\u200d👩")).toBe("a👩");
  });
});
