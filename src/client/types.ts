/**
 * The client's types, inferred from the valibot schemas the server validates and answers
 * with (the same ones the OpenAPI document is converted from). Type imports only: the
 * client's code needs none of the schemas at run time.
 */
import type * as v from "valibot";
import type { JobExtrasSchema, JobSchema } from "../contract/job.js";
import type { AnalyseRequestSchema, AnalysisResponseSchema } from "../contract/analyse.js";
import type { ProblemSchema } from "../contract/problem.js";
import type { RefreshRequestSchema, RefreshResponseSchema } from "../contract/refresh.js";
import type { GenerateRequestSchema } from "../contract/request.js";
import type { OutlineResponseSchema } from "../contract/outline-response.js";
import type { ArticleResponseSchema, StreamDeltaSchema, StreamMetaSchema, StreamOutlineSchema } from "../contract/response.js";
import type { VoiceRequestSchema, VoiceResponseSchema } from "../contract/voice.js";

/** A generation request as sent: only `topic` is required. The client sets the transport itself, so `stream` is not part of it. */
export type ArticleRequest = Omit<v.InferInput<typeof GenerateRequestSchema>, "stream">;

/** What `POST /api/v1/refresh` takes: the article as `markdown`, and optionally its targets, `links`, `sources` and `seed`. */
export type RefreshRequest = v.InferInput<typeof RefreshRequestSchema>;

/** The refresh answer: the new article, the report before and after, the changes, the checks still failing and the diff. */
export type RefreshResponse = v.InferOutput<typeof RefreshResponseSchema>;

/** What `POST /api/v1/jobs` takes: a generation request (or, with `kind: "refresh"`, a refresh request) and, optionally, a `webhook`. */
export type JobRequest = Omit<v.InferInput<typeof JobExtrasSchema>, "kind"> &
  ((ArticleRequest & { kind?: "article" }) | (RefreshRequest & { kind: "refresh" }));

/** The outline answer: the plan an article would be written from, whose `outline` goes back, edited, as a request's `outline`. */
export type OutlineResponse = v.InferOutput<typeof OutlineResponseSchema>;

/** The generate answer: the article, its SEO report and usage. */
export type ArticleResponse = v.InferOutput<typeof ArticleResponseSchema>;

/** What `POST /api/v1/analyse` takes: the article as `markdown` or `html` (exactly one), and optionally the targets it is measured against. */
export type AnalyseRequest = v.InferInput<typeof AnalyseRequestSchema>;

/** The analyse answer: the SEO report of the article as it is, its figures, outline and the targets measured. */
export type AnalysisResponse = v.InferOutput<typeof AnalysisResponseSchema>;

/** What `POST /api/v1/voice` takes: the team's own Markdown articles, and optionally the voice's name. */
export type VoiceRequest = v.InferInput<typeof VoiceRequestSchema>;

/** The voice answer: the learnt profile (send it as `style.voice`) and each example's own measures. */
export type VoiceResponse = v.InferOutput<typeof VoiceResponseSchema>;

/** A job as the API shows it. */
export type Job = v.InferOutput<typeof JobSchema>;

/** A problem+json body (RFC 9457); a 422 adds `errors`, one `{ path, message }` per invalid field. */
export type Problem = v.InferOutput<typeof ProblemSchema>;

/**
 * One event of a generate stream, its data parsed: `meta` once accepted, `outline` once
 * planned, `delta`s of Markdown, then `done` with the full answer. An `error` event is
 * thrown, not yielded.
 */
export type StreamEvent =
  | { event: "meta"; data: v.InferOutput<typeof StreamMetaSchema> }
  | { event: "outline"; data: v.InferOutput<typeof StreamOutlineSchema> }
  | { event: "delta"; data: v.InferOutput<typeof StreamDeltaSchema> }
  | { event: "done"; data: ArticleResponse };
