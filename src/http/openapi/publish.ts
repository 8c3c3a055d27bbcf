/**
 * The publishing part of the document: `POST /api/v1/publish`, its request and answer,
 * converted from the valibot schemas that validate and type them.
 */
import { EXAMPLE_PUBLISH_REQUEST, PublicationSchema, PublishRequestSchema, PublishTargetsSchema } from "../../contract/publish.js";
import { answerSchema, ref, requestSchema, type Json } from "./convert.js";
import { KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

/** The publishing path group. */
export function publishGroup(): PathGroup {
  const request: Json = { title: "PublishRequest", ...requestSchema(PublishRequestSchema) };
  return {
    tag: "publishing",
    description: "Articles published to the WordPress and Ghost sites the operator configured, as drafts by default, never twice.",
    paths: {
      "/api/v1/publish": {
        get: {
          operationId: "listPublishTargets",
          tags: ["publishing"],
          summary: "The key's publishing targets",
          description:
            "The names of the configured publishing targets this key may publish to (`inkpress keys create --publish-to`); empty for a key given none. The " +
            "playground offers “Publish as draft” when there is one.",
          security: KEYED,
          responses: {
            200: { description: "The key's targets.", content: { "application/json": { schema: ref("PublishTargets") } } },
            ...problemRefs([401, 429, 500]),
          },
        },
        post: {
          operationId: "publishArticle",
          tags: ["publishing"],
          summary: "Publish an article",
          description:
            "An article the caller already has (Markdown with front matter, as `inkpress batch` writes it) published to a target the key was given. The " +
            "post it already is (the front matter's `posts.<target>` id, else the slug; the title's without one) is updated, never a second one, and only " +
            "when this key made it: another key's post, or one inkpress did not make, is a 409 naming it. A target the key was not given is a 403; a " +
            "site that refuses is a 502 naming the target, never its credentials.",
          security: KEYED,
          requestBody: {
            required: true,
            description: "The article and where to publish it.",
            content: { "application/json": { schema: request, example: EXAMPLE_PUBLISH_REQUEST } },
          },
          responses: {
            200: {
              description: "The post: its target, id, address and status; `created` false when an existing post was updated.",
              content: { "application/json": { schema: ref("Publication") } },
            },
            ...problemRefs([400, 401, 403, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504]),
          },
        },
      },
    },
    schemas: { Publication: answerSchema(PublicationSchema), PublishTargets: answerSchema(PublishTargetsSchema) },
  };
}
