/**
 * Models `inkpress models pull` knows by name. Each is an instruct model with a chat template
 * under a permissive licence, quantised as a single GGUF download (or one split set).
 *
 * `uri` is a full `hf:<user>/<repo>/<file>` URI: it names the exact file, so resolving it needs
 * no call to the Hugging Face API, and `file` is the name the repository uses (and the name the
 * file gets in models/).
 */

/** The names `inkpress models pull` accepts besides URIs and URLs. */
export type PresetName = "default" | "small" | "large";

/** A downloadable model. */
export interface ModelPreset {
  readonly name: PresetName;
  /** One line for help texts. */
  readonly description: string;
  /** A node-llama-cpp model URI (`hf:user/repo/file.gguf`). */
  readonly uri: string;
  /** The file name in the repository and in models/ (the first part, for a split model). */
  readonly file: string;
  /** Number of files of a split model (`…-00001-of-0000N.gguf`); 1 otherwise. */
  readonly parts: number;
  /** Approximate size of the download in bytes, all parts together. */
  readonly bytes: number;
  /** SPDX identifier of the model licence. */
  readonly licence: string;
  /** What to expect from it. */
  readonly quality: string;
  /** The repository page, for downloading by hand on another machine. */
  readonly page: string;
  /**
   * Hex SHA-256 of `file`, checked after the download when set. Only pinned for hashes taken
   * from the repository itself; undefined means only the GGUF header is checked.
   */
  readonly sha256?: string;
}

/** The models `inkpress models pull` knows by name, with what a user needs to choose one. */
export const PRESETS: Readonly<Record<PresetName, ModelPreset>> = {
  default: {
    name: "default",
    description: "Qwen2.5 1.5B Instruct, Q4_K_M (~1.1 GB): multilingual, good balance of speed and quality",
    uri: "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    file: "qwen2.5-1.5b-instruct-q4_k_m.gguf",
    parts: 1,
    bytes: 1_120_000_000,
    licence: "Apache-2.0",
    quality: "Fluent, well-structured articles in English and the ~29 other languages Qwen2.5 supports; needs about 2 GB of free RAM.",
    page: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF",
    sha256: undefined,
  },
  small: {
    name: "small",
    description: "Qwen2.5 0.5B Instruct, Q8_0 (~680 MB): for slow or small machines",
    uri: "hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q8_0.gguf",
    file: "qwen2.5-0.5b-instruct-q8_0.gguf",
    parts: 1,
    bytes: 676_000_000,
    licence: "Apache-2.0",
    quality:
      "Faster and lighter than default, with simpler wording, more repetition and weaker non-English text. Q8_0 because 4-bit quantisation hurts a model " +
      "this small.",
    page: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF",
    sha256: undefined,
  },
  large: {
    name: "large",
    description: "Qwen2.5 7B Instruct, Q4_K_M (~4.7 GB, 2 files): best quality, needs ~8 GB of RAM",
    uri: "hf:Qwen/Qwen2.5-7B-Instruct-GGUF/qwen2.5-7b-instruct-q4_k_m-00001-of-00002.gguf",
    file: "qwen2.5-7b-instruct-q4_k_m-00001-of-00002.gguf",
    parts: 2,
    bytes: 4_680_000_000,
    licence: "Apache-2.0",
    quality: "Richer, more accurate articles; several times slower than default on a CPU (about 4x the bytes to read per token).",
    page: "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct-GGUF",
    sha256: undefined,
  },
};

/** The preset `inkpress models pull` and the first start use when none is named. */
export const DEFAULT_PRESET: PresetName = "default";

/** Whether a pull source names a preset rather than an hf: URI or a URL. */
export function isPresetName(value: string): value is PresetName {
  return Object.hasOwn(PRESETS, value);
}
