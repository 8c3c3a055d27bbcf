/** The in-process writer's sampling (src/model/llama-writer.ts), so a remote backend keeps the articles' character. */
export const SAMPLING = {
  temperature: 0.8,
  topK: 40,
  topP: 0.9,
  minP: 0.05,
  repeatPenalty: 1.15,
  /** Recent tokens the repeat penalty looks at. */
  repeatLastN: 64,
} as const;
