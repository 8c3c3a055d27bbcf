import {
  ChatMLChatWrapper,
  GemmaChatWrapper,
  Llama3ChatWrapper,
  MistralChatWrapper,
  SpecialToken,
  SpecialTokensText,
  type ChatWrapper,
} from "node-llama-cpp";
import { MARKED_TURNS, templateParts, type TemplateParts } from "./prompt.js";

/**
 * The chat formats inkpress writes raw prompts in, each known by a control token its Ollama
 * template (a Go template, which inkpress cannot run) holds, and written by node-llama-cpp's
 * chat wrapper of that format: the same text the in-process runtime gives such a model.
 */
const FORMATS: readonly { name: string; marker: string; wrapper: () => ChatWrapper }[] = [
  { name: "ChatML", marker: "<|im_start|>", wrapper: () => new ChatMLChatWrapper() },
  { name: "Llama 3", marker: "<|start_header_id|>", wrapper: () => new Llama3ChatWrapper() },
  { name: "Gemma", marker: "<start_of_turn>", wrapper: () => new GemmaChatWrapper() },
  { name: "Mistral", marker: "[INST]", wrapper: () => new MistralChatWrapper() },
];

/**
 * How a model of `template` (its Ollama template) takes its prompt: as plain completion text
 * (a template that only places the prompt), in a chat format inkpress knows (its parts around
 * the turns' text), or undefined: a format inkpress does not know, which Ollama is left to apply
 * to messages (`/api/chat`).
 */
export function ollamaChatFormat(template: string, origin: string): { format: string; parts: TemplateParts | undefined } | undefined {
  if (/^\s*\{\{-?\s*\.Prompt\s*-?\}\}\s*$/u.test(template) || template.trim() === "") return { format: "completion", parts: undefined };
  const known = FORMATS.find((f) => template.includes(f.marker));
  if (!known) return undefined;
  const { contextText } = known.wrapper().generateContextState({
    chatHistory: [
      { type: "system", text: MARKED_TURNS[0].content },
      { type: "user", text: MARKED_TURNS[1].content },
      { type: "model", response: [] },
    ],
  });
  // Ollama puts BOS before a raw prompt itself (its tokenizer adds the model's special tokens).
  const rendered = contextText.values
    .map((value) => (value instanceof SpecialTokensText ? value.value : value instanceof SpecialToken ? "" : value))
    .join("");
  return { format: known.name, parts: templateParts(rendered, origin) };
}
