/** A worker thread of an audit: measures the page files it is sent, one at a time, and posts each result back. */
import { parentPort, workerData } from "node:worker_threads";
import { measurePage, type PageOptions } from "./page.js";

const options = workerData as PageOptions;
parentPort!.on("message", (file: string) => {
  measurePage(file, options).then(
    (result) => parentPort!.postMessage({ file, result }),
    (error: unknown) => parentPort!.postMessage({ file, result: { error: `${file}: ${(error as Error)?.message ?? String(error)}` } }),
  );
});
