/**
 * A Markdown page as site generators keep them: YAML front matter (Hugo, Astro, Jekyll,
 * Eleventy), then CommonMark with GitHub's extensions (tables, autolinked URLs, footnotes).
 */
import type { Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { parse } from "yaml";
import { InvalidFieldError } from "../../../errors.js";
import { assertNesting } from "../../text/nesting.js";

/** A Markdown page: its tree and its front matter's fields. */
export interface MarkdownPage {
  tree: Root;
  /** The YAML front matter's top-level fields; empty without one (TOML front matter is skipped, not read). */
  frontMatter: Record<string, unknown>;
}

/** Parse a Markdown page; front matter that is not a YAML mapping, or nesting too deep to parse, is an error naming `field`. */
export function readMarkdown(markdown: string, field = "markdown"): MarkdownPage {
  assertNesting(markdown, "markdown", field);
  const tree = fromMarkdown(markdown, {
    extensions: [frontmatter(["yaml", "toml"]), gfm()],
    mdastExtensions: [frontmatterFromMarkdown(["yaml", "toml"]), gfmFromMarkdown()],
  });
  const yaml = tree.children[0]?.type === "yaml" ? tree.children[0].value : undefined;
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
