import { readFile } from "node:fs/promises";
import path from "node:path";
import { defineCommand } from "citty";
import { writeFileAtomic } from "../atomic.js";
import { type Applied, applyLinks, LinksError, reviewLines } from "../backfill/apply.js";
import { MAX_LINKS, proposeLinks } from "../backfill/propose.js";
import { readSite } from "../backfill/site.js";
import { cliCommand } from "../invocation.js";
import { articleOfMarkdown } from "../publish/post.js";
import { LOCAL_OWNER } from "../publish/ownership.js";
import { UsageError, fail } from "./fail.js";
import { PUBLISHING_SETTINGS, publishingTo } from "./publish.js";

/** `inkpress links`: internal links between a site's existing pages, proposed for review, then applied. */
export const linksCommand = defineCommand({
  meta: {
    name: "links",
    description:
      "Propose internal links between a folder's existing Markdown pages, on words the pages already hold; --apply places the kept ones",
  },
  args: {
    dir: { type: "positional", required: true, description: "A content folder (Hugo, Astro, Jekyll, Eleventy) of Markdown pages" },
    out: { type: "string", alias: "o", description: "Write the proposals to this review file (JSONL, one a line); default: stdout" },
    apply: { type: "string", description: "Place the proposals of this review file (delete a line to reject it); each page keeps a .bak" },
    max: { type: "string", default: String(MAX_LINKS), description: "Most new links a page" },
    "base-path": {
      type: "string",
      default: "/",
      description: "The path the folder is served under (/posts/ for Hugo's content/posts), for pages without a front matter url",
    },
    "base-url": { type: "string", description: "The site's origin (https://example.com): links are written as full URLs on it" },
    "keywords-from": { type: "string", default: "keywords", description: "The front matter field that holds each page's keywords" },
    language: { type: "string", description: "ISO 639-1 code of pages whose front matter names none (default en)" },
    publish: {
      type: "string",
      description:
        "With --apply: update, on this target of --publish-targets, the post each linked page's front matter names (posts: {TARGET: id})",
    },
    ...PUBLISHING_SETTINGS,
  },
  async run({ args }) {
    try {
      if (args.publish && !args.apply)
        throw new UsageError("--publish updates the posts of the pages --apply links: give --apply REVIEW too");
      if (args.apply) return await apply(args.dir, args.apply, args.publish ? await publishingTo(args.publish, args) : undefined);
      const max = Number(args.max);
      if (!(Number.isInteger(max) && max >= 1 && max <= 50))
        throw new UsageError(`max must be a whole number from 1 to 50, got "${args.max}"`);
      if (args["base-url"] !== undefined && !/^https?:\/\/[^/\s]+\/?$/iu.test(args["base-url"]))
        throw new UsageError(`base-url must be a site's origin such as https://example.com, got "${args["base-url"]}"`);
      const { pages, unreadable } = await readSite(args.dir, {
        basePath: args["base-path"],
        keywordsField: args["keywords-from"],
        ...(args.language ? { language: args.language } : {}),
      });
      const proposals = proposeLinks(pages, {
        max,
        basePath: args["base-path"],
        ...(args["base-url"] ? { baseUrl: args["base-url"] } : {}),
      });
      for (const { error } of unreadable) process.stderr.write(`inkpress: ${error}; not linked\n`);
      if (!args.out) {
        process.stdout.write(reviewLines(proposals));
        return;
      }
      await writeFileAtomic(args.out, reviewLines(proposals), { userFile: true });
      const files = new Set(proposals.map((p) => p.file)).size;
      process.stdout.write(
        `${proposals.length} link${proposals.length === 1 ? "" : "s"} proposed on ${files} of ${pages.length} pages, in ${args.out}.\n` +
          `Delete the lines you reject, then: ${cliCommand(`links ${args.dir} --apply ${args.out}`)}\n`,
      );
    } catch (error) {
      fail(error);
    }
  },
});

/** Where `--publish` updates the linked pages' posts: the target's publishing, opened before any page is written. */
type PublishTo = Awaited<ReturnType<typeof publishingTo>>;

/**
 * Apply a review file: the links placed, and one line for each proposal skipped (exit code 1 if
 * any was); with `publish`, each linked page's post on the target updated after.
 */
async function apply(dir: string, review: string, publish?: PublishTo): Promise<void> {
  const text = await readFile(review, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new LinksError(`${review}: cannot read it (${error.code ?? error.message})`);
  });
  let applied: Applied;
  let unpublished = 0;
  try {
    applied = await applyLinks(dir, review, text);
    if (publish) unpublished = await publishLinked(dir, applied.files, publish);
  } finally {
    await publish?.publishing.close();
  }
  for (const line of applied.skipped) process.stderr.write(`inkpress: ${line}\n`);
  process.stdout.write(
    `${applied.links} link${applied.links === 1 ? "" : "s"} placed in ${applied.files.length} page${applied.files.length === 1 ? "" : "s"} (each one's ` +
      `earlier bytes are in its .bak)${applied.skipped.length ? `; ${applied.skipped.length} skipped` : ""}.\n`,
  );
  process.exitCode = applied.skipped.length || unpublished ? 1 : 0;
}

/**
 * Update the post of each linked page on the target, as `inkpress publish` does: the post the
 * page's front matter names, never a new one (a page without one is named and left unpublished).
 */
async function publishLinked(dir: string, files: readonly string[], { publishing, field }: PublishTo): Promise<number> {
  let unpublished = 0;
  for (const file of files) {
    const { article, recordedId } = articleOfMarkdown(await readFile(path.join(dir, file), "utf8"), field.target);
    if (!recordedId) {
      process.stderr.write(`inkpress: ${file}: not published, its front matter names no post on "${field.target}"\n`);
      unpublished++;
      continue;
    }
    try {
      const published = await publishing.publish(article, field, LOCAL_OWNER, recordedId);
      process.stderr.write(`${file}: updated post ${published.id} on "${published.target}" (${published.status})\n`);
    } catch (error) {
      process.stderr.write(`inkpress: ${file}: not published: ${error instanceof Error ? error.message : String(error)}\n`);
      unpublished++;
    }
  }
  return unpublished;
}
