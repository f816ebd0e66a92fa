import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const adminRouter = new Hono<AppEnv>();
