import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const internalRouter = new Hono<AppEnv>();
