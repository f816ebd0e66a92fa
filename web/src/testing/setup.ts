import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { toaster } from '@/components/ui/toaster-store';
import { loadQueryRuntime } from '@/lib/query-runtime-loader';

// findBy*/waitFor wait for a condition, never for a time: on a loaded CI machine a lazy route can
// take seconds to render, so the ceiling is generous (it only matters when a test fails).
configure({ asyncUtilTimeout: 15_000 });

// The app loads TanStack Query after the landing page; tests have it from the start, as before.
await loadQueryRuntime();

// jsdom's CSS parser does not know `@layer`, which Chakra's styles use; its complaint is noise.
// Vitest exposes the JSDOM instance as the global `jsdom`.
type VirtualConsole = import('node:events').EventEmitter;
const dom = (globalThis as { jsdom?: { virtualConsole?: VirtualConsole } }).jsdom;
const virtualConsole = dom?.virtualConsole;
if (virtualConsole) {
  virtualConsole.removeAllListeners('jsdomError');
  virtualConsole.on('jsdomError', (error: Error) => {
    if (!error.message.includes('Could not parse CSS stylesheet')) console.error(error);
  });
}

// jsdom lacks the layout APIs Chakra's components (zag-js) reach for.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver;
window.scrollTo = () => undefined;

// jsdom has no PointerEvent; zag-js reads pointerType to tell a mouse from touch.
if (!window.PointerEvent) {
  class PointerEventPolyfill extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    readonly isPrimary: boolean;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
      this.isPrimary = init.isPrimary ?? true;
    }
  }
  window.PointerEvent = PointerEventPolyfill as unknown as typeof PointerEvent;
}
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => undefined;
Element.prototype.scrollIntoView ??= () => undefined;

afterEach(() => {
  cleanup();
  toaster.remove();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
