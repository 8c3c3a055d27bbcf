/** A worker thread of an audit: measures each page file it is sent and answers the result. */
import { wordVectors } from "../article/index.js";
import { serveTasks } from "../worker-pool.js";
import { measurePage } from "./page.js";
import type { PageTask } from "./pool.js";

// The on-topic check's word vectors, loaded before the worker says it is ready: no page's time limit counts the load.
wordVectors();
serveTasks(({ file, options }: PageTask) => measurePage(file, options));
