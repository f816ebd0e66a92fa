// One prerendered page, in a thread of its own (scripts/prerender.ts): the server bundle is loaded
// afresh, as a browser loads the app for each page, and whatever the render leaves running (the
// query cache's timers) ends with the thread.
import { parentPort, workerData } from 'node:worker_threads';

const { renderPage } = await import(workerData.entry);
parentPort.postMessage(await renderPage(workerData.path));
