import { defineHandler } from "h3";
import { PublishRequestSchema } from "../../contract/publish.js";
import { ownerOf, type Publishing } from "../../publish/publisher.js";
import type { TextPool } from "../../text-pool.js";
import { jsonRoute } from "../validation.js";

/** What the publish route serves with. */
export interface PublishRouteOptions {
  publishing: Publishing;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /** Reads and renders the article off the event loop. */
  texts: TextPool;
}

/**
 * `POST /api/v1/publish`: an article the caller already has (Markdown with front matter) published
 * to a target the key was given; the post it already is (recorded id, else slug) is updated when
 * this key made it, and a post that is not its own is a 409 naming it. The article is read and
 * rendered on a worker thread, within the analyse limit.
 */
export function publishRoute({ publishing, bodyTimeoutMs, texts }: PublishRouteOptions) {
  return jsonRoute("/api/v1/publish", { body: PublishRequestSchema, bodyTimeoutMs }, async (event) => {
    const { markdown, publish } = await event.req.json();
    publishing.authorise(event.context.apiKey, publish.target);
    const { article, recordedId } = await texts.publication(markdown, publish.target, event.context.apiKey?.id ?? "");
    return { object: "publication", ...(await publishing.publish(article, publish, ownerOf(event.context.apiKey), recordedId)) };
  });
}

/** `GET /api/v1/publish`: the targets the key may publish to, so a client (the playground) offers only those. */
export function publishTargetsRoute({ publishing }: Pick<PublishRouteOptions, "publishing">) {
  return defineHandler((event) => ({ object: "publish-targets", targets: publishing.targetsOf(event.context.apiKey) }));
}
