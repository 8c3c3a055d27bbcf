import { VoiceRequestSchema } from "../../contract/voice.js";
import type { TextPool } from "../../text-pool.js";
import { jsonRoute } from "../validation.js";

/**
 * `POST /api/v1/voice`: a house voice learnt from the team's own articles. No model and no
 * generation slot (the key's rate limit applies); the examples are read on a worker thread,
 * so no set of articles holds the event loop.
 */
export function voiceRoute({ bodyTimeoutMs, texts }: { bodyTimeoutMs: number; texts: TextPool }) {
  return jsonRoute("/api/v1/voice", { body: VoiceRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const request = await event.req.json();
    return texts.voice(request, event.context.apiKey?.id ?? "");
  });
}
