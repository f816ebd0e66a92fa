// Preloaded into the local stack's Deno api (`deno run --preload`, dev/stack.ts) and nowhere else:
// the deployed function is unchanged. The stack gives the api a stdin pipe and never writes to it;
// the kernel closes that pipe when the stack's process ends, however it ends (Ctrl-C, a crash,
// SIGTERM, SIGKILL), and the api then exits instead of keeping its port ("Port 54332 (api) is
// already in use" on every later start, issue 21). Typed without Deno's globals so that the
// Node-side type check (tsconfig.json covers dev/) accepts it too.
interface DenoRuntime {
  stdin: { readable: ReadableStream<Uint8Array> };
  exit(code?: number): never;
}

const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
const runtime = globalThis as unknown as { addEventListener(type: 'load', listener: () => void): void };

async function exitAtEndOfInput(): Promise<void> {
  try {
    const reader = deno.stdin.readable.getReader();
    while (!(await reader.read()).done) {
      // the stack writes nothing; anything read is ignored
    }
  } catch {
    // a broken pipe means the same: the stack is gone
  }
  deno.exit(0);
}

// Not started right away: Deno (2.9.6, observed) runs a preloaded module's pending work to its end
// before it evaluates the main module, so a read started here would hold the api back until the
// stack ends. The 'load' event comes once the main module has been evaluated.
runtime.addEventListener('load', () => void exitAtEndOfInput());
