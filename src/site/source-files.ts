import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { InkpressError } from "../errors.js";
import { unreadable } from "./unreadable.js";

/** A source read from a file, before the request's validation. */
export interface SourceFile {
  title: string;
  url?: string;
  text: string;
}

/** A source file that cannot be read or whose front matter is not a mapping. */
export class SourceFileError extends InkpressError {}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/**
 * One source from a plain-text or Markdown file. YAML front matter may give its `title`
 * and `url` (and is not part of the text); without a title, the file's first `# ` heading
 * names it, else the file name without its extension.
 */
export function sourceFromFile(file: string, content: string): SourceFile {
  const match = FRONT_MATTER.exec(content);
  let data: unknown = {};
  if (match) {
    try {
      data = parse(match[1]!) ?? {};
    } catch (error) {
      throw new SourceFileError(`${file}: its front matter is not valid YAML: ${(error as Error).message.split("\n")[0]}`, {
        cause: error,
      });
    }
    if (typeof data !== "object" || Array.isArray(data))
      throw new SourceFileError(`${file}: its front matter must be a mapping (title:, url:)`);
  }
  const { title, url } = data as { title?: unknown; url?: unknown };
  const text = match ? content.slice(match[0].length) : content.replace(/^\uFEFF/, "");
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1];
  return {
    title: typeof title === "string" && title.trim() ? title : (heading ?? path.basename(file, path.extname(file))),
    ...(typeof url === "string" ? { url } : {}),
    text,
  };
}

/** Sources from files, each path relative to `base`; a file that cannot be read is an error naming it. */
export async function readSourceFiles(options: { paths: readonly string[]; base: string }): Promise<SourceFile[]> {
  return Promise.all(
    options.paths.map(async (given) => {
      const file = path.resolve(options.base, given);
      let content: string;
      try {
        content = await readFile(file, "utf8");
      } catch (error) {
        throw new SourceFileError(`cannot read source ${given}: ${unreadable(error)}`, { cause: error });
      }
      return sourceFromFile(given, content);
    }),
  );
}
