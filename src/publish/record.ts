import { realpath, stat } from "node:fs/promises";
import { parseDocument } from "yaml";
import { readMarkdown } from "../article/index.js";
import { writeFileAtomic } from "../atomic.js";
import { InvalidFieldError } from "../errors.js";
import { readTextFile } from "../text-file.js";

/**
 * The post a Markdown article became, recorded in its front matter (`posts: { blog: 123 }`) so
 * a later publish or refresh finds that post by id, whatever its slug has become. Only the
 * `posts` block is written: every other byte of the file stays as it was.
 */

/**
 * The Markdown with `posts.<target>: id` in its front matter (a front matter added when it has
 * none), in the file's own line endings: the lines written take the ending of its first line,
 * and every line kept keeps its own.
 */
export function withPostRecorded(markdown: string, target: string, id: string): string {
  const { tree } = readMarkdown(markdown);
  const first = tree.children[0];
  if ((first?.type as string | undefined) === "toml")
    throw new InvalidFieldError("markdown", "TOML front matter", "markdown: the post's id is recorded in YAML front matter, not TOML");
  const crlf = markdown.slice(0, markdown.indexOf("\n") + 1).endsWith("\r\n");
  const eol = crlf ? "\r\n" : "\n";
  const entry = `  ${target}: ${/^[1-9]\d{0,14}$/.test(id) ? id : JSON.stringify(id)}`;
  if (first?.type !== "yaml") return ["---", "posts:", entry, "---", "", markdown].join(eol);
  const open = markdown.indexOf("\n") + 1;
  const close = open + first.value.length;
  if (markdown.slice(open, close) !== first.value) throw new Error("front matter not found where the parser read it");
  const posts = parseDocument(first.value, { version: "1.1" }).toJS()?.posts as Record<string, unknown> | undefined;
  if (posts?.[target] !== undefined && String(posts[target]) === id) return markdown;
  // Each line without its ending, and whether that ending is CRLF (the last one's is after the front matter: the file's).
  const parts = first.value === "" ? [] : first.value.split("\n");
  const lines = parts.map((part, i) => ({ text: part.replace(/\r$/, ""), crlf: i < parts.length - 1 ? part.endsWith("\r") : crlf }));
  const at = lines.findIndex((line) => /^posts\s*:/.test(line.text));
  // The existing block (its key line and every indented line under it) is written anew with the other targets' ids kept.
  let end = at + 1;
  while (at >= 0 && end < lines.length && /^([ \t]|$)/.test(lines[end]!.text)) end++;
  const others = Object.entries(posts && typeof posts === "object" ? posts : {})
    .filter(([name]) => name !== target)
    .map(([name, value]) => `  ${name}: ${typeof value === "number" ? value : JSON.stringify(String(value))}`);
  const block = ["posts:", ...others, entry].map((text) => ({ text, crlf }));
  if (at < 0) lines.push(...block);
  else lines.splice(at, end - at, ...block);
  const text = lines.map((line, i) => (i < lines.length - 1 ? `${line.text}${line.crlf ? "\r\n" : "\n"}` : line.text)).join("");
  // An empty front matter's closing fence follows its opening one at once.
  return `${markdown.slice(0, open)}${text}${first.value === "" ? eol : ""}${markdown.slice(close)}`;
}

/**
 * Record the post in a Markdown file, written atomically (a crash leaves the old file or the
 * new); false when it already named it. A symbolic link is written through: the file it points
 * to gets the record, and the link stays a link.
 */
export async function recordPost(file: string, target: string, id: string): Promise<boolean> {
  const real = await realpath(file);
  // Strict UTF-8: a file read loosely and written back would lose every byte that is not.
  const { text: markdown } = await readTextFile(real);
  const recorded = withPostRecorded(markdown, target, id);
  if (recorded === markdown) return false;
  await writeFileAtomic(real, recorded, { mode: (await stat(real)).mode & 0o777 });
  return true;
}
