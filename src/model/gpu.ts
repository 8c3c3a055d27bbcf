import { getLlama, getLlamaGpuTypes, LlamaLogLevel, type Llama, type LlamaGpuType } from "node-llama-cpp";
import { ModelLoadError } from "./errors.js";

/** What `--gpu` accepts. */
export const GPU_CHOICES = ["auto", "cuda", "vulkan", "metal", "off"] as const;
/** Where `--gpu` runs a model: the best GPU that works, a named one, or the CPU (`off`). */
export type GpuChoice = (typeof GPU_CHOICES)[number];

/** Layers to offload to the GPU: a number, or "auto" (as many as fit in its memory). */
export type GpuLayers = number | "auto";

/** Where an in-process model runs, for `/healthz` and the start-up line. */
export interface Compute {
  /** The compute backend in use. */
  gpu: "cuda" | "vulkan" | "metal" | "cpu";
  /** Layers offloaded to the GPU (0 on the CPU). */
  gpuLayers: number;
  /** Layers of the model. */
  layers: number;
  /** Why `--gpu auto` runs on the CPU; unset otherwise. */
  fallback?: string;
}

/** GPU types in words. */
export const GPU_NAMES: Record<Exclude<LlamaGpuType, false>, string> = { cuda: "CUDA", vulkan: "Vulkan", metal: "Metal" };

/** node-llama-cpp stays quiet: its warnings would break one-line start-up errors. */
const QUIET = { build: "never", logLevel: LlamaLogLevel.error, logger: () => {}, progressLogs: false } as const;

/**
 * The llama.cpp runtime for a GPU choice, from node-llama-cpp's prebuilt binaries only
 * (never a build from source). `auto` takes the best GPU that works and else the CPU,
 * saying why in `fallback`; a named GPU that does not work is a {@link ModelLoadError}.
 */
export async function openLlama(choice: GpuChoice): Promise<{ llama: Llama; fallback?: string }> {
  if (choice === "off") return { llama: await getLlama({ ...QUIET, gpu: false }) };
  if (choice === "auto") {
    const llama = await getLlama({ ...QUIET, gpu: "auto" });
    return { llama, fallback: llama.gpu === false ? await whyNoGpu() : undefined };
  }
  await assertGpu(choice);
  const llama = await getLlama({ ...QUIET, gpu: choice }).catch(() => undefined);
  if (llama?.gpu === choice) return { llama };
  await llama?.dispose();
  throw unavailable(choice, `node-llama-cpp's prebuilt ${GPU_NAMES[choice]} binary does not run on this machine`);
}

/**
 * Fail fast, before the server listens, when a named GPU type cannot be on this machine:
 * not built for the platform, or no driver and libraries (a quick check; loading the binary
 * is the full one).
 */
export async function assertGpu(choice: GpuChoice): Promise<void> {
  if (choice === "auto" || choice === "off") return;
  if (!(await getLlamaGpuTypes("allValid")).includes(choice))
    throw unavailable(choice, `${GPU_NAMES[choice]} is not available on ${process.platform} ${process.arch}`);
  if (!(await getLlamaGpuTypes("supported")).includes(choice))
    throw unavailable(choice, `no ${GPU_NAMES[choice]} driver or libraries found on this machine`);
}

function unavailable(choice: GpuChoice, why: string): ModelLoadError {
  return new ModelLoadError(`cannot use the GPU "${choice}": ${why}; choose --gpu auto or --gpu off (INKPRESS_GPU)`);
}

/** Why `auto` found no GPU, in words. */
async function whyNoGpu(): Promise<string> {
  const valid = (await getLlamaGpuTypes("allValid")).filter((type) => type !== false);
  const found = (await getLlamaGpuTypes("supported")).filter((type) => type !== false);
  if (valid.length === 0) return `node-llama-cpp has no GPU build for ${process.platform} ${process.arch}`;
  if (found.length === 0) return `no ${valid.map((type) => GPU_NAMES[type]).join(" or ")} GPU found`;
  return `node-llama-cpp's prebuilt ${found.map((type) => GPU_NAMES[type]).join(" and ")} binaries do not run on this machine`;
}

/**
 * Flash attention for a context on this runtime: llama.cpp's choice on a GPU, off on the CPU.
 * llama.cpp's CPU kernel is slower for small attention heads: on stories260K (8-wide heads) a
 * token at position 1,750 costs 3.4 ms with it and 0.9 ms without; on the SmolLM2 and Qwen2.5
 * shapes it makes no difference on the CPU.
 */
export function flashAttentionFor(llama: Llama): "auto" | false {
  return llama.gpu === false ? false : "auto";
}
