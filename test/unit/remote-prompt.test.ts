import { describe, expect, it } from "vitest";
import { ModelLoadError } from "../../src/model/errors.js";
import { MARKED_TURNS, breakTags, promptPrefix, tagPieces, templateParts, type PartTokenizers } from "../../src/model/remote/prompt.js";

// The control tokens of the common chat formats, as a caller could write them into request text.
const CONTROL = [
  "<|im_start|>",
  "<|im_end|>",
  "</s>",
  "<s>",
  "<|begin_of_text|>",
  "<|eot_id|>",
  "<start_of_turn>",
  "<end_of_turn>",
  "[INST]",
  "[/INST]",
  "<｜end▁of▁sentence｜>",
  "<|endoftext|>",
];

describe("remote prompts: request text kept apart from the template's control tokens", () => {
  it("splits the template applied to the marked turns at the turns' text", () => {
    const [system, user] = MARKED_TURNS.map((turn) => turn.content);
    const rendered = `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`;
    expect(templateParts(rendered, "http://x")).toEqual({
      before: "<|im_start|>system\n",
      between: "<|im_end|>\n<|im_start|>user\n",
      after: "<|im_end|>\n<|im_start|>assistant\n",
    });
  });

  it("refuses a template that drops or repeats a turn's text", () => {
    const [system, user] = MARKED_TURNS.map((turn) => turn.content);
    for (const rendered of [`${user}`, `${system}${system}${user}`, `${system}${user}${user}`, `${user}${system}`]) {
      expect(() => templateParts(rendered, "http://x"), rendered).toThrow(ModelLoadError);
    }
  });

  it("tokenizes the template's parts with control tokens parsed, the turns' text without, the first part with BOS", async () => {
    const calls: string[] = [];
    const fake = (kind: string) => async (text: string, special: boolean) => {
      calls.push(`${kind}:${special ? "special" : "literal"}:${text}`);
      return [calls.length];
    };
    const tokenizers: PartTokenizers = { start: fake("start"), piece: fake("piece") };
    const prompt = { system: "Write <|im_end|>.", user: "About </s>", completion: "" };
    const prefix = await promptPrefix(prompt, { before: "<s>[S]", between: "[U]", after: "[A]" }, tokenizers);
    expect(calls).toEqual([
      "start:special:<s>[S]",
      "piece:literal:Write <|im_end|>.",
      "piece:special:[U]",
      "piece:literal:About </s>",
      "piece:special:[A]",
    ]);
    expect(prefix.tokens).toEqual([1, 2, 3, 4, 5]);
    // As text, the template's own tags stay; the request's are broken.
    expect(prefix.text).toBe("<s>[S]Write <\u200b|im_end|>.[U]About <\u200b/s>[A]");
  });

  it("a completion prompt is request text throughout; an empty one is still its BOS", async () => {
    const calls: string[] = [];
    const start = async (text: string, special: boolean) => {
      calls.push(`${special}:${text}`);
      return [1];
    };
    const tokenizers: PartTokenizers = { start, piece: async () => [] };
    await promptPrefix({ system: "", user: "", completion: "Once <s>" }, undefined, tokenizers);
    await promptPrefix({ system: "", user: "", completion: "" }, undefined, tokenizers);
    expect(calls).toEqual(["false:Once <s>", "false:"]);
  });

  it("cuts text after each < and [, so no piece holds a control token whole; joined, the pieces are the text", () => {
    for (const token of CONTROL) {
      const text = `a ${token} b${token}`;
      const pieces = tagPieces(text);
      expect(pieces.join("")).toBe(text);
      for (const piece of pieces) expect(piece.includes(token), `${piece} of ${text}`).toBe(false);
    }
    expect(tagPieces("plain words")).toEqual(["plain words"]);
  });

  it("breaks every control token's tag for a server that takes text, and leaves other text alone", () => {
    for (const token of CONTROL) expect(breakTags(`x ${token} y`).includes(token), token).toBe(false);
    expect(breakTags("a < b and c > d, [1, 2] and <a href=x>")).toBe("a < b and c > d, [1, 2] and <a href=x>");
  });
});
