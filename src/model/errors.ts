/** A model problem that deserves one clear line, not a stack trace (missing file, not GGUF, failed load). */
export class ModelLoadError extends Error {}
