import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';

export const dashboardRouter = new Hono<AppEnv>();
