/**
 * The pages of a folder measured on every core: worker threads take the next file as soon
 * as they are free (pages differ in length), and the results come back in file order. A
 * small folder is measured on this thread, where starting workers would cost more.
 */
import { Worker } from "node:worker_threads";
import { workerSource } from "../worker-pool.js";
import { measurePage, type PageOptions, type PageResult } from "./page.js";

/** Fewer pages than this are measured without workers. */
const WORKERS_FROM = 64;

/** Measure every file, `jobs` at a time; `onResult` hears each as it comes (in any order). */
export async function measurePages(
  files: readonly string[],
  options: PageOptions & { jobs: number; onResult?: (index: number, result: PageResult) => void },
): Promise<PageResult[]> {
  const { jobs, onResult, ...pageOptions } = options;
  const results: PageResult[] = new Array(files.length);
  if (jobs <= 1 || files.length < WORKERS_FROM) {
    for (const [i, file] of files.entries()) onResult?.(i, (results[i] = await measurePage(file, pageOptions)));
    return results;
  }
  let next = 0;
  const run = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      let current = -1;
      let done = false;
      const send = () => {
        if (next >= files.length) {
          done = true;
          resolve();
          return;
        }
        current = next++;
        worker.postMessage(files[current]);
      };
      worker.on("message", ({ result }: { result: PageResult }) => {
        onResult?.(current, (results[current] = result));
        send();
      });
      worker.on("error", reject);
      worker.on("exit", (code) => (done ? undefined : reject(new Error(`an audit worker stopped (exit code ${code})`))));
      send();
    });
  const workers = Array.from(
    { length: Math.min(jobs, files.length) },
    () => new Worker(workerSource(new URL("./worker.js", import.meta.url)), { eval: true, workerData: pageOptions }),
  );
  try {
    await Promise.all(workers.map(run));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}
