import { describe, expect, it } from "vitest";
import { parseMarkdown, serialiseMarkdown } from "../../src/article/text/markdown.js";

// The one Markdown processor writes back what it reads, GitHub's extensions included: an author's
// struck-through words or table once made the serialiser throw ("unknown node `delete`").

describe("serialiseMarkdown", () => {
  it.each([
    ["a paragraph with struck-through words", "Cut ~~the old~~ canes at the base."],
    ["a table", "| Month | Task  |\n| ----- | ----- |\n| May   | Mulch |"],
    ["a task list", "- [x] Sow the peas\n- [ ] Net the brassicas"],
  ])("writes %s back as Markdown that reads as the same tree", (_, markdown) => {
    const [node] = parseMarkdown(markdown).children;
    const written = serialiseMarkdown(node!);
    expect(written).toBe(markdown);
    const strip = (value: unknown) => JSON.stringify(value, (key, v) => (key === "position" ? undefined : v));
    expect(strip(parseMarkdown(written).children[0])).toBe(strip(node));
  });
});
