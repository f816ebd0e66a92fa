import { app } from './app.ts';

// PORT and LISTEN_HOST are the local stack's (dev/stack.ts: 127.0.0.1, like every other part of
// it, so the sample mailbox and test-mode payments are not reachable from the network); Supabase's
// runtime serves the function its own way and sets neither.
Deno.serve(
  { port: Number(Deno.env.get('PORT') ?? 8000), hostname: Deno.env.get('LISTEN_HOST') ?? '0.0.0.0' },
  app.fetch,
);
