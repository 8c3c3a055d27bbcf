import * as v from "valibot";
import { described } from "./schema.js";

/**
 * What `GET /healthz` answers, as valibot schemas: they type the answer and generate its
 * OpenAPI schema, so the documented answer cannot drift from the served one.
 */

const count = (text?: string) =>
  text ? described(v.pipe(v.number(), v.integer(), v.minValue(0)), text) : v.pipe(v.number(), v.integer(), v.minValue(0));

// What model/ reports in these words: its backends build the answer, so the types are checked there (the contract reads no module above it).
const GPUS = ["cpu", "cuda", "vulkan", "metal"] as const;
const UPSTREAM_STATES = ["ok", "unavailable", "unreachable"] as const;
const PROMPT_FORMS = ["token-ids", "text", "messages"] as const;
const PROMPTINGS = ["chat-template", "completion"] as const;

/** Where articles are written: in-process (the compute backend and the layers offloaded), or an inference server. */
const BackendReportSchema = described(
  v.variant("kind", [
    v.object({
      kind: v.literal("in-process"),
      gpu: described(v.picklist(GPUS), "The compute backend in use."),
      gpuLayers: count("Layers offloaded to the GPU."),
      layers: count("Layers of the model."),
      fallback: v.optional(described(v.string(), "Why `--gpu auto` runs on the CPU.")),
    }),
    v.object({
      kind: v.picklist(["llama-server", "vllm", "ollama"]),
      url: described(v.string(), "The server's origin (never credentials)."),
      state: described(v.picklist(UPSTREAM_STATES), "How it answered its last health check (cached a few seconds)."),
      prompts: described(
        v.picklist(PROMPT_FORMS),
        "How prompts are sent: token ids (the server's cache always matches), text where the server takes no ids, or chat messages the " +
          "server applies its own chat template to (Ollama with a template inkpress does not know).",
      ),
    }),
  ]),
  "Where the model runs: in-process (the compute backend and the layers offloaded), or an inference server (its state from its last health check, cached a " +
    "few seconds).",
);

/** What `/healthz` says about where articles are written. */
export type BackendReport = v.InferOutput<typeof BackendReportSchema>;

/** The answer of `GET /healthz`: ready (200), or loading (503). */
export const HealthSchema = v.variant("status", [
  v.object({
    status: v.literal("ok"),
    model: described(v.string(), "Name of the model."),
    prompting: described(v.picklist(PROMPTINGS), "Through the model's own chat template, or as plain completion."),
    backend: BackendReportSchema,
    queue: v.object({
      running: count("Articles being written."),
      waiting: count("Requests waiting for a slot."),
      capacity: count("Slots plus queue places."),
    }),
  }),
  v.object({ status: v.literal("loading") }),
]);

/** The answer of `GET /healthz`. */
export type Health = v.InferOutput<typeof HealthSchema>;
