/** Sampling of every backend: in-process and remote articles keep the same character. */
export const SAMPLING = {
  temperature: 0.8,
  topK: 40,
  topP: 0.9,
  minP: 0.05,
  repeatPenalty: 1.15,
  /** Recent tokens the repeat penalty looks at. */
  repeatLastN: 64,
} as const;

/** The same sampling in llama-server's `/completion` field names, which Ollama's `options` share. */
export const LLAMA_SERVER_SAMPLING = {
  temperature: SAMPLING.temperature,
  top_k: SAMPLING.topK,
  top_p: SAMPLING.topP,
  min_p: SAMPLING.minP,
  repeat_penalty: SAMPLING.repeatPenalty,
  repeat_last_n: SAMPLING.repeatLastN,
} as const;
