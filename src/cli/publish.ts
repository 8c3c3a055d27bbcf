import { defineCommand } from "citty";
import * as v from "valibot";
import { PublishFieldSchema, type PublishField, type Published } from "../contract/publish.js";
import { splitList } from "../contract/fields.js";
import { LocalPublicationRecords } from "../keys/post-records.js";
import type { PublicationRecords } from "../keys/storage.js";
import { articleOfMarkdown } from "../publish/post.js";
import { LOCAL_OWNER } from "../publish/ownership.js";
import { Publishing } from "../publish/publisher.js";
import { recordPost } from "../publish/record.js";
import { readSetting, settingArgs, type SettingFlags } from "../settings.js";
import { UsageError, fail } from "./fail.js";
import { NotTextError, readTextFile } from "../text-file.js";

/** The publish flags `publish` takes, as the request's `publish` field names them. */
export const PUBLISH_ARGS = {
  status: { type: "string", description: "draft (the target's default unless it says otherwise), publish, or future with --date" },
  date: { type: "string", description: "When a future post goes live, ISO 8601 with zone" },
  categories: { type: "string", description: "Category names, separated by ;" },
  tags: { type: "string", description: "Tag names, separated by ;" },
} as const;

/** The `publish` field of a target and the publish flags, validated as the API validates it: a bad one is one line naming it. */
export function publishField(
  target: string,
  args: { status?: string; date?: string; categories?: string; tags?: string; slug?: string },
): v.InferOutput<typeof PublishFieldSchema> {
  const given = {
    target,
    ...(args.status !== undefined && { status: args.status }),
    ...(args.date !== undefined && { date: args.date }),
    ...(args.categories !== undefined && { categories: splitList(args.categories) }),
    ...(args.tags !== undefined && { tags: splitList(args.tags) }),
    ...(args.slug !== undefined && { slug: args.slug }),
  };
  const parsed = v.safeParse(PublishFieldSchema, given);
  if (!parsed.success) throw new UsageError(parsed.issues[0].message);
  return parsed.output;
}

/** The settings the command line publishes with: the targets, and where the server keeps the records of who made which post. */
export const PUBLISHING_SETTINGS = settingArgs("publishTargets", "dataDir", "redis");

/**
 * The targets of --publish-targets, with the records of who made which post read where the
 * server keeps them (Redis with --redis, else the data folder), so the command line, publishing
 * as the operator (no key), finds its own posts and refuses a key's. Close it when done.
 */
export async function openPublishing(flags: SettingFlags): Promise<Publishing> {
  const url = readSetting("redis", { flags });
  let records: PublicationRecords;
  if (url) {
    // Loaded only here, so the other commands start without the Redis client.
    const { RedisKeyStorage } = await import("../keys/redis-storage.js");
    records = await RedisKeyStorage.connectOnce(url);
  } else records = new LocalPublicationRecords(readSetting("dataDir", { flags }));
  return Publishing.open(readSetting("publishTargets", { flags }), records);
}

/** The targets of --publish-targets and the publish field of one, checked before any model is loaded. */
export async function publishingTo(
  target: string,
  args: Parameters<typeof publishField>[1] & SettingFlags,
): Promise<{ publishing: Publishing; field: PublishField }> {
  if (!readSetting("publishTargets", { flags: args }))
    throw new UsageError("no publishing targets: give --publish-targets FILE (INKPRESS_PUBLISH_TARGETS)");
  const field = publishField(target, args);
  const publishing = await openPublishing(args);
  try {
    publishing.authorise(undefined, target);
  } catch (error) {
    await publishing.close();
    throw error;
  }
  return { publishing, field };
}

/** A Markdown file as strict UTF-8: one in another encoding would publish U+FFFD and then be written back without its bytes. */
async function readArticleFile(file: string): Promise<string> {
  try {
    return (await readTextFile(file)).text;
  } catch (error) {
    if (error instanceof NotTextError)
      throw new UsageError(`${file}: ${error.message.replace("nothing was written for it", "nothing was published")}`);
    throw error;
  }
}

/** Record the post in the file it was published from, and say so in one line. */
export async function recordPublished(file: string, published: Published): Promise<void> {
  await recordPost(file, published.target, published.id);
  process.stderr.write(
    `${file}: ${published.created ? "created" : "updated"} post ${published.id} on "${published.target}" (${published.status}), its id recorded in the ` +
      `front matter\n`,
  );
}

/** `inkpress publish FILE.md --to TARGET`: an article as batch writes it, published as the API's `POST /api/v1/publish` does. */
export const publishCommand = defineCommand({
  meta: {
    name: "publish",
    description:
      "Publish a Markdown article (front matter as batch writes it) to a target of --publish-targets; the post it already is (same slug) is updated",
  },
  args: {
    file: { type: "positional", required: true, description: "A Markdown file with front matter (title, description, slug, keywords)" },
    to: { type: "string", required: true, description: "The publishing target's name" },
    ...PUBLISH_ARGS,
    slug: { type: "string", description: "The post's slug, over the front matter's" },
    ...PUBLISHING_SETTINGS,
  },
  async run({ args }) {
    try {
      const { publishing, field } = await publishingTo(args.to, args);
      try {
        const { article, recordedId } = articleOfMarkdown(await readArticleFile(args.file), args.to);
        const published = await publishing.publish(article, field, LOCAL_OWNER, recordedId);
        process.stdout.write(`${published.url}\n`);
        await recordPublished(args.file, published);
      } finally {
        await publishing.close();
      }
    } catch (error) {
      fail(error);
    }
  },
});
