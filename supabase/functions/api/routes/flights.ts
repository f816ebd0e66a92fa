import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const flightsRouter = new Hono<AppEnv>();
