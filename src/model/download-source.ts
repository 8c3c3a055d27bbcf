/**
 * What a pull downloads: a preset name, an `hf:` URI or an http(s) URL, resolved to the URI
 * node-llama-cpp fetches, the file name it lands under and the SHA-256 it must have.
 */
import path from "node:path";
import { ModelPullError } from "./errors.js";
import { DEFAULT_PRESET, PRESETS, isPresetName, type ModelPreset } from "./presets.js";

/** A resolved source. */
export interface Target {
  /** The URI or URL handed to node-llama-cpp. */
  uri: string;
  kind: "hf" | "url";
  /** How messages name it. */
  label: string;
  fileName?: string;
  sha256?: string;
  preset?: ModelPreset;
}

/** What a source is resolved from. */
export interface SourceOptions {
  /** A preset name, an `hf:` URI or an http(s) URL. @default the default preset */
  source?: string;
  /**
   * Expected hex SHA-256 of the (entry) file; overrides the preset's.
   * @default the preset's; none for an `hf:` URI or a URL
   */
  sha256?: string;
  /** File name in the models folder. @default the preset's, or the URI's / URL's last path segment */
  fileName?: string;
}

/** Appended to a message that the hub or server cannot be reached. */
export const OFFLINE_HINT = "; offline or air-gapped, copy a .gguf file into the models folder instead";

const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/;

/** The target of a source; a source that is none of the three is a {@link ModelPullError} ("source"). */
export function resolveSource(options: SourceOptions): Target {
  const source = (options.source ?? "").trim() || DEFAULT_PRESET;
  const sha256 = checkSha(options.sha256);
  if (isPresetName(source)) {
    const preset = PRESETS[source];
    return {
      uri: preset.uri,
      kind: "hf",
      label: `${preset.file} (preset "${preset.name}")`,
      fileName: options.fileName ?? preset.file,
      sha256: sha256 ?? checkSha(preset.sha256),
      preset,
    };
  }
  if (/^(hf|huggingface):/i.test(source)) return huggingFaceTarget(source, options.fileName, sha256);
  if (/^https?:\/\//i.test(source)) return urlTarget(source, options.fileName, sha256);
  throw new ModelPullError(
    "source",
    `unknown model "${source}": use a preset (${Object.keys(PRESETS).join(", ")}), an hf: URI (hf:user/repo/file.gguf) or an http(s):// URL`,
  );
}

/** hf:user/repo/path/file.gguf names the file; hf:user/repo:quant is looked up through the hub's API. */
function huggingFaceTarget(source: string, fileName: string | undefined, sha256: string | undefined): Target {
  const [user, repo, ...rest] = source.replace(/^[a-z]+:(\/\/)?/i, "").split("/");
  if (!user || !repo)
    throw new ModelPullError("source", `not a valid hf: URI: "${source}" (expected hf:user/repo:quant or hf:user/repo/file.gguf)`);
  const filePath = rest.join("/").replace(/#.*$/, "");
  const named = filePath.toLowerCase().endsWith(".gguf") ? path.posix.basename(filePath) : undefined;
  return { uri: source, kind: "hf", label: source, fileName: fileName ?? named, sha256 };
}

function urlTarget(source: string, fileName: string | undefined, sha256: string | undefined): Target {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new ModelPullError("source", `not a valid URL: "${source}"`);
  }
  let last = "";
  try {
    last = decodeURIComponent(url.pathname.split("/").pop() ?? "");
  } catch {
    // An undecodable name: let the downloader pick one.
  }
  const named = last.toLowerCase().endsWith(".gguf") && !/[\\/]/.test(last) ? last : undefined;
  return { uri: url.href, kind: "url", label: url.href, fileName: fileName ?? named, sha256 };
}

function checkSha(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const hex = value.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new ModelPullError("source", `not a SHA-256 (64 hex digits): "${value}"`);
  return hex;
}

/** The Hugging Face endpoint in node-llama-cpp's own resolution order, so the probe checks the host it will use. */
export function huggingFaceEndpoint(explicit: string | undefined): string {
  const candidates = [explicit, process.env.MODEL_ENDPOINT, process.env.HF_ENDPOINT];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href.endsWith("/") ? url.href : `${url.href}/`;
    } catch {
      // not a URL: node-llama-cpp ignores it too
    }
  }
  return "https://huggingface.co/";
}

/** Every part's file name of a split model (`…-00001-of-00003.gguf`), or the one name. */
export function splitPartNames(fileName: string): string[] {
  const match = SPLIT_PART.exec(fileName);
  if (!match) return [fileName];
  const parts = Number(match[2]);
  if (!(parts > 0)) return [fileName];
  const stem = fileName.slice(0, match.index);
  return Array.from({ length: parts }, (_, i) => `${stem}-${String(i + 1).padStart(5, "0")}-of-${match[2]}.gguf`);
}
