import * as v from "valibot";

/**
 * The stand-in's `/api/chat` (scripts/ollama-stand-in.ts): its documented request, and the one
 * chat template the stand-in runs, in TypeScript, as Ollama would run its Go text. No Go template
 * engine runs here, so a model served through `/api/chat` carries a template from this file.
 */

/** One of `/api/chat`'s documented `messages`. */
const MESSAGE = v.strictObject({
  role: v.picklist(["system", "user", "assistant", "tool"]),
  content: v.string(),
  thinking: v.optional(v.string()),
  images: v.optional(v.array(v.string())),
  tool_calls: v.optional(v.array(v.unknown())),
  tool_name: v.optional(v.string()),
});

/** The chat messages of one request. */
export type Message = v.InferOutput<typeof MESSAGE>;

/** `POST /api/chat`'s documented fields (`options` and `format` as `/api/generate`'s). */
export function chatRequest<O extends v.GenericSchema, F extends v.GenericSchema>(options: O, format: F) {
  return v.strictObject({
    model: v.string(),
    messages: v.array(MESSAGE),
    tools: v.optional(v.array(v.unknown())),
    format: v.optional(format),
    options: v.optional(options),
    stream: v.optional(v.boolean()),
    keep_alive: v.optional(v.union([v.string(), v.number()])),
    think: v.optional(v.boolean()),
  });
}

/** A chat template: its Go text, as `/api/show` reports it, and the prompt Ollama makes of messages with it. */
export interface StandInTemplate {
  text: string;
  render(messages: Message[]): string;
}

/**
 * Vicuna, from Ollama's own template index: a legacy template (`.System`, `.Prompt`,
 * `.Response`), in none of the formats inkpress writes raw prompts in. Ollama runs a legacy
 * template once for each user turn and its answer, and the last time only up to `.Response`: a
 * final assistant message is left open, so the model continues it.
 */
export const VICUNA: StandInTemplate = {
  text: "{{ if .System }}{{ .System }}\n\n{{ end }}{{ if .Prompt }}USER: {{ .Prompt }}\n{{ end }}ASSISTANT: {{ .Response }}</s>\n",
  render: (messages) =>
    legacyTurns(messages)
      .map(({ system, prompt, response }, i, all) => {
        const head = `${system ? `${system}\n\n` : ""}${prompt ? `USER: ${prompt}\n` : ""}ASSISTANT: ${response}`;
        return i === all.length - 1 ? head : `${head}</s>\n`;
      })
      .join(""),
};

/** One run of a legacy template. */
interface LegacyTurn {
  system: string;
  prompt: string;
  response: string;
}

/**
 * Messages as Ollama's `Template.Execute` runs a legacy template over them: consecutive messages
 * of one role merged (`collate`), then a new run wherever a system message follows a prompt or
 * answer, or a user message follows an answer.
 */
function legacyTurns(messages: Message[]): LegacyTurn[] {
  const merged: Message[] = [];
  for (const m of messages) {
    const last = merged.at(-1);
    if (last && last.role === m.role && m.role !== "tool") last.content += `\n\n${m.content}`;
    else merged.push({ ...m });
  }
  const empty = (): LegacyTurn => ({ system: "", prompt: "", response: "" });
  const turns: LegacyTurn[] = [];
  let turn = empty();
  for (const m of merged) {
    if ((m.role === "system" && (turn.prompt || turn.response)) || (m.role === "user" && turn.response)) {
      turns.push(turn);
      turn = empty();
    }
    if (m.role === "system") turn.system = m.content;
    if (m.role === "user") turn.prompt = m.content;
    if (m.role === "assistant") turn.response = m.content;
  }
  turns.push(turn);
  return turns;
}
