/**
 * A Markdown page as site generators keep them: YAML front matter (Hugo, Astro, Jekyll,
 * Eleventy), then CommonMark with GitHub's extensions, read by the one Markdown processor.
 */
import type { Root } from "mdast";
import { parse } from "yaml";
import { InvalidFieldError } from "../../errors.js";
import { parseMarkdown, yamlFrontMatter } from "../text/markdown.js";

/** A Markdown page: its tree and its front matter's fields. */
export interface MarkdownPage {
  tree: Root;
  /** The YAML front matter's top-level fields; empty without one (TOML front matter is skipped, not read). */
  frontMatter: Record<string, unknown>;
}

/** Parse a Markdown page; front matter that is not a YAML mapping, or nesting too deep to parse, is an error naming `field`. */
export function readMarkdown(markdown: string, field = "markdown"): MarkdownPage {
  const tree = parseMarkdown(markdown, field);
  const yaml = yamlFrontMatter(tree);
  return { tree, frontMatter: yaml === undefined ? {} : frontMatterOf(yaml, field) };
}

function frontMatterOf(yaml: string, field: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parse(yaml, { version: "1.1" });
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw new InvalidFieldError(
      field,
      `the front matter is not valid YAML: ${reason}`,
      `${field}: the front matter is not valid YAML: ${reason}`,
    );
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new InvalidFieldError(
      field,
      "the front matter must be a YAML mapping of fields",
      `${field}: the front matter must be a YAML mapping of fields`,
    );
  }
  return data as Record<string, unknown>;
}
